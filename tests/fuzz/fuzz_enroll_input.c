/* Fuzzes tools/ember-varstore/enroll_input.c: any bytes as base64 text (a PEM body),
 * whose decoding is then judged as a DER certificate, and as a hex SHA-256 hash. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "../../tools/ember-varstore/tool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	UINT8 *out = malloc(size + 1), hash[32];
	char *terminated = malloc(size + 1);
	long n;

	if (!out || !terminated)
		goto done;
	n = enroll_base64_decode(text, text + size, out);
	/* Three bytes for each four digits: never more than the text's length. */
	if (n > (long)size)
		abort();
	if (n >= 0)
		(void)enroll_der_certificate(out, (size_t)n);
	(void)enroll_der_certificate(data, size);
	memcpy(terminated, data, size);
	terminated[size] = 0;
	(void)enroll_parse_sha256(terminated, hash);
done:
	free(out);
	free(terminated);
	return 0;
}
