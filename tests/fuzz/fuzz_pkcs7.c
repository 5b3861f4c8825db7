/* Fuzzes crypto/pkcs7_*.c and, through them, mbedTLS's X.509 parsing and RSA checks. The
 * input: a 16-bit length L, L bytes of a trusted certificate (L 0: no trust list), then the
 * SignedData; the content is the SignedData's own when it embeds one, else a fixed text. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"
#include <string.h>

#include <ember/crypto/pkcs7.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char text[] = "Ember fuzz content";
	struct pkcs7_blob trusted, p7, type, content;
	struct pkcs7_signer signer;
	size_t length;

	if (size < 2)
		return 0;
	length = (size_t)data[0] | (size_t)data[1] << 8;
	if (length > size - 2)
		return 0;
	trusted = (struct pkcs7_blob){data + 2, length};
	p7 = (struct pkcs7_blob){data + 2 + length, size - 2 - length};
	(void)pkcs7_get_content(p7, &type, &content);
	(void)pkcs7_verify(p7, (struct pkcs7_blob){NULL, 0}, &trusted, length ? 1 : 0, &signer);
	(void)pkcs7_verify(p7, (struct pkcs7_blob){(const uint8_t *)text, strlen(text)}, &trusted,
			   length ? 1 : 0, &signer);
	return 0;
}
