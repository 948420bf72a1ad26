<?php
// PSR-4 autoloader for the vendored client, as its composer.json declares it ("Klix\\": "lib/Klix"), so that
// the client runs without Composer or its third-party packages (none of the vendored files needs them).
//
// PHP 8 reports the 2020 code's deprecations (jsonSerialize() without a return type, "${var}" in strings)
// when a class loads; they go to stderr, never into the HTML or JSON these scripts print on stdout.
ini_set('display_errors', 'stderr');
error_reporting(E_ALL & ~E_DEPRECATED);

spl_autoload_register(function ($class) {
    $prefix = 'Klix\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/lib/Klix/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
