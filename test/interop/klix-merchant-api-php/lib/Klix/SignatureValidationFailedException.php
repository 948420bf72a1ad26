<?php

namespace Klix;

use RuntimeException;

class SignatureValidationFailedException extends RuntimeException
{
}
