/* The library asserts only in its self-tests and with MBEDTLS_CHECK_PARAMS, which Ember
 * leaves off (crypto/mbedtls_config.h): nothing to define. static_assert is C11. */
#ifndef static_assert
#define static_assert _Static_assert
#endif
