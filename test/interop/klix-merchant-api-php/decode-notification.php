<?php
// Decodes a purchase notification as a merchant's back end does with the official client, then calls every
// getter of the MerchantOrder it returns, and of every model those return, and prints the results as JSON.
//
// Usage: php decode-notification.php <body-file> <signature> <gateway-certificate-pem-file>
// Prints {"getters": {...}, "errors": [...]}: each getter's value, a nested model's getters, a list of them
// (getItems), or {"error": "..."} where the getter failed; `errors` lists the failed getters' paths. A PHP
// warning (an undefined array key: a member the body lacks) counts as a failure. When the decoder itself
// refuses the body, prints {"decodeError": {"class": ..., "message": ...}} and exits 1.
require __DIR__ . '/autoload.php';

use Klix\Api\Model;
use Klix\Callback\ProviderCallbackRequestDecoder;
use Klix\Callback\ProviderSignatureValidator;
use Klix\KlixConfigurationBuilder;

if ($argc !== 4) {
    fwrite(STDERR, "usage: php decode-notification.php <body-file> <signature> <gateway-certificate-pem-file>\n");
    exit(2);
}
[, $bodyFile, $signature, $certificateFile] = $argv;

set_error_handler(function ($severity, $message, $file, $line) {
    throw new ErrorException($message, 0, $severity, $file, $line);
}, E_ALL & ~E_DEPRECATED);

// The configuration requires a merchant private key, which decoding does not use: a throwaway one stands in.
$throwaway = openssl_pkey_new(['private_key_bits' => 2048, 'private_key_type' => OPENSSL_KEYTYPE_RSA]);
openssl_pkey_export($throwaway, $privateKey);
$apiConfiguration = KlixConfigurationBuilder::builder()
    ->setPrivateKey($privateKey)
    ->setProviderPublicKey(file_get_contents($certificateFile))
    ->build();
$decoder = new ProviderCallbackRequestDecoder(new ProviderSignatureValidator($apiConfiguration));

try {
    $merchantOrder = $decoder->decodePurchaseFinalizedRequest(file_get_contents($bodyFile), $signature);
} catch (Throwable $error) {
    echo json_encode(['decodeError' => ['class' => get_class($error), 'message' => $error->getMessage()]]);
    exit(1);
}

$errors = [];

/** Every get* method of the model's own class (not Model::getValues), called, recursively. */
function readModel(Model $model, $path, array &$errors)
{
    $results = [];
    $class = new ReflectionClass($model);
    foreach ($class->getMethods(ReflectionMethod::IS_PUBLIC) as $method) {
        $name = $method->getName();
        if (strpos($name, 'get') !== 0 || $method->getDeclaringClass()->getName() === Model::class) {
            continue;
        }
        $at = "$path.$name()";
        try {
            $results[$name] = readValue($method->invoke($model), $at, $errors);
        } catch (Throwable $error) {
            $results[$name] = ['error' => get_class($error) . ': ' . $error->getMessage()];
            $errors[] = $at;
        }
    }
    ksort($results);
    return $results;
}

function readValue($value, $path, array &$errors)
{
    if ($value instanceof Model) {
        return readModel($value, $path, $errors);
    }
    if (is_array($value)) {
        $list = [];
        foreach ($value as $index => $entry) {
            $list[] = readValue($entry, "{$path}[$index]", $errors);
        }
        return $list;
    }
    return $value;
}

$getters = readModel($merchantOrder, 'MerchantOrder', $errors);
echo json_encode(['getters' => $getters, 'errors' => $errors], JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
