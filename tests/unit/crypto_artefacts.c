/* Reading tests/crypto/mkartefacts' output (see crypto_artefacts.h). */
#include "crypto_artefacts.h"
#include <stdio.h>
#include <stdlib.h>

#include "support/test.h"

#ifndef CRYPTO_TEST_DIR
#error "the Makefile names the artefacts' directory"
#endif

const char *artefact_dir(void)
{
	return CRYPTO_TEST_DIR;
}

uint8_t *artefact_read(const char *name, size_t *size)
{
	char path[512];
	uint8_t *data = NULL;
	long length;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", CRYPTO_TEST_DIR, name);
	f = fopen(path, "rb");
	/* A missing artefact is a failure, never a skip. */
	ASSERT(f != NULL);
	if (fseek(f, 0, SEEK_END) == 0 && (length = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		data = malloc((size_t)length + 1);
		if (data && fread(data, 1, (size_t)length, f) == (size_t)length)
			*size = (size_t)length;
		else
			free(data), data = NULL;
	}
	fclose(f);
	ASSERT(data != NULL);
	return data;
}

struct pkcs7_blob artefact_blob(const char *name)
{
	struct pkcs7_blob blob;

	blob.data = artefact_read(name, &blob.size);
	return blob;
}

void artefact_free(struct pkcs7_blob blob)
{
	free((void *)blob.data);
}
