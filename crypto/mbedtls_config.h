/* Ember's configuration of mbedTLS (Debian's 2.28 source, fetched at build time by
 * scripts/fetch-mbedtls): only what Secure Boot and measured boot use. X.509 certificates,
 * RSA with PKCS#1 v1.5 and PSS signatures, SHA-1/256/384/512, big numbers, ASN.1 and the
 * public-key layer. No file I/O, no network, no entropy, no clock: the firmware has none of
 * them, and certificate validity periods are not checked by UEFI (UEFI 2.10 32.5.3). */
#ifndef EMBER_MBEDTLS_CONFIG_H
#define EMBER_MBEDTLS_CONFIG_H

/* Memory comes from the core's pool, text from lib/format.c (crypto/mbedtls_glue.c). */
#define MBEDTLS_PLATFORM_C
#define MBEDTLS_PLATFORM_MEMORY
#define MBEDTLS_PLATFORM_NO_STD_FUNCTIONS
#define MBEDTLS_PLATFORM_CALLOC_MACRO crypto_calloc
#define MBEDTLS_PLATFORM_FREE_MACRO crypto_free
#define MBEDTLS_PLATFORM_SNPRINTF_MACRO crypto_snprintf

/* 64x64 multiplication in assembly speeds RSA up; 128-bit division would need the
 * compiler's runtime (__udivti3), which the firmware does not link. */
#define MBEDTLS_HAVE_ASM
#define MBEDTLS_NO_UDBL_DIVISION

#define MBEDTLS_ASN1_PARSE_C
#define MBEDTLS_BIGNUM_C
#define MBEDTLS_OID_C
#define MBEDTLS_MD_C
#define MBEDTLS_SHA1_C
#define MBEDTLS_SHA256_C
#define MBEDTLS_SHA512_C
#define MBEDTLS_RSA_C
#define MBEDTLS_PKCS1_V15
#define MBEDTLS_PKCS1_V21
#define MBEDTLS_PK_C
#define MBEDTLS_PK_PARSE_C
#define MBEDTLS_X509_USE_C
#define MBEDTLS_X509_CRT_PARSE_C
#define MBEDTLS_X509_RSASSA_PSS_SUPPORT

/* Declarations of the glue's functions named above. */
#include <stddef.h>
void *crypto_calloc(size_t count, size_t size);
void crypto_free(void *buffer);
int crypto_snprintf(char *buf, size_t size, const char *fmt, ...);

#include "mbedtls/check_config.h"

#endif
