/* Fuzzes crypto/authenticode_*.c: any bytes as a PE/COFF image, its digest in each
 * algorithm, its certificate table and each signature's SpcIndirectDataContent, then the
 * signature itself (no trust list: a valid signature by anyone). */
#include "fuzz.h"
#include "../unit/support/test_platform.h"

#include <ember/crypto/authenticode.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum hash_alg algs[] = {HASH_SHA1, HASH_SHA256, HASH_SHA384, HASH_SHA512};
	uint8_t digest[HASH_MAX_SIZE];
	struct authenticode_certs certs;
	struct pkcs7_blob p7, signed_digest;
	enum hash_alg alg;

	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		(void)authenticode_digest(data, size, algs[i], digest);
	if (authenticode_certs_begin(data, size, &certs) != EFI_SUCCESS)
		return 0;
	while (authenticode_certs_next(&certs, &p7) == EFI_SUCCESS) {
		if (authenticode_signed_digest(p7, &alg, &signed_digest) == EFI_SUCCESS)
			(void)pkcs7_verify(p7, (struct pkcs7_blob){NULL, 0}, NULL, 0, NULL);
	}
	return 0;
}
