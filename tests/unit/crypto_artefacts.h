/* The signatures, certificates and images tests/crypto/mkartefacts made with openssl,
 * efitools and sbsigntool when the unit tests were built (BUILD/crypto-test). */
#ifndef EMBER_TEST_CRYPTO_ARTEFACTS_H
#define EMBER_TEST_CRYPTO_ARTEFACTS_H

#include <stddef.h>
#include <stdint.h>
#include <ember/crypto/pkcs7.h>

/* The contents of artefact name (malloc'ed; the test fails when it is missing). */
uint8_t *artefact_read(const char *name, size_t *size);
/* The same as a blob (freed by artefact_free). */
struct pkcs7_blob artefact_blob(const char *name);
void artefact_free(struct pkcs7_blob blob);
/* The directory's path, for tests that list it. */
const char *artefact_dir(void);

#endif
