<?php
// Prints the widget markup of one of the official client's README orders, built and signed by the client
// itself: CheckoutWidgetFactory::create(...)->getHtmlRepresentation().
//
// Usage: php print-widget.php <single|multi> <widget-id> <private-key-pem-file> [certificate-name]
//   single: the README's single item order (no certificate name, as the README's example sets none);
//   multi:  the README's order with two items, two shipping options and the constraint brand "Citadele",
//           signed with <certificate-name> as the README's example names one.
// The README's values are kept; only the widget id and certificate name are this sandbox's.
require __DIR__ . '/autoload.php';

use Klix\KlixConfigurationBuilder;
use Klix\Widget\CheckoutWidgetFactory;
use Klix\Widget\Order;
use Klix\Widget\OrderConstraints;
use Klix\Widget\OrderItem;
use Klix\Widget\ShippingOption;
use Klix\Widget\WidgetConfiguration;
use Klix\Widget\WidgetConfigurationSigner;

if ($argc < 4 || !in_array($argv[1], ['single', 'multi'], true)) {
    fwrite(STDERR, "usage: php print-widget.php <single|multi> <widget-id> <private-key-pem-file> [certificate-name]\n");
    exit(2);
}
[, $kind, $widgetId, $keyFile] = $argv;
$certificateName = $argv[4] ?? null;
$privateKey = file_get_contents($keyFile);
// The configuration requires the gateway's public key, which signing does not use: the merchant's own stands in.
$publicKey = openssl_pkey_get_details(openssl_pkey_get_private($privateKey))['key'];

$apiConfiguration = KlixConfigurationBuilder::builder()
    ->setPrivateKey($privateKey)
    ->setPrivateKeyId($certificateName)
    ->setProviderPublicKey($publicKey)
    ->build();

if ($kind === 'single') {
    $orderItem = OrderItem::create()
        ->setAmount(120.04)
        ->setCurrency('EUR')
        ->setLabel("Order No 1234567890");
    $order = Order::create()
        ->setOrderId("36c420f4-5487-11ea-a2e3-2e728ce88125")
        ->addItem($orderItem);
    $widgetConfiguration = WidgetConfiguration::create()
        ->setWidgetId($widgetId)
        ->setLanguage("lv")
        ->setBackToMerchantUrl("https://merchant.home.url.com")
        ->setOrder($order);
} else {
    $firstOrderItem = OrderItem::create()
        ->setAmount(122.99)
        ->setCount(2)
        ->setCurrency("EUR")
        ->setLabel("Vacuum cleaner TC31")
        ->setOrderItemId("ff713414-56f9-11ea-82b4-0242ac130003")
        ->setTaxRate(0.21)
        ->setUnit("PIECE");
    $secondOrderItem = OrderItem::create()
        ->setAmount(7.05)
        ->setCurrency('EUR')
        ->setLabel("Filter for TC31");
    $firstShippingOption = ShippingOption::create()
        ->setId("courier")
        ->setAmount(3);
    $secondShippingOption = ShippingOption::create()
        ->setId("pickup")
        ->setTitle("In store pickup")
        ->setAmount(0)
        ->setCurrency("EUR");
    $constraints = new OrderConstraints();
    $constraints->setBrand("Citadele");
    $order = Order::create()
        ->setOrderId("1234567890")
        ->addItem($firstOrderItem)
        ->addItem($secondOrderItem)
        ->addShippingOption($firstShippingOption)
        ->addShippingOption($secondShippingOption)
        ->setConstraints($constraints);
    $widgetConfiguration = WidgetConfiguration::create()
        ->setWidgetId($widgetId)
        ->setLanguage("lv")
        ->setBackToMerchantUrl("https://merchant.home.url.com")
        ->setCertificateName($certificateName)
        ->setOrder($order);
}

$widgetConfigurationSigner = new WidgetConfigurationSigner($apiConfiguration);
$checkoutWidgetFactory = new CheckoutWidgetFactory($widgetConfigurationSigner);
$checkoutWidget = $checkoutWidgetFactory->create($widgetConfiguration);
echo $checkoutWidget->getHtmlRepresentation();
