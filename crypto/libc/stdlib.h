/* Empty: the freestanding build of mbedTLS takes its allocator from its configuration
 * (crypto/mbedtls_config.h). */
