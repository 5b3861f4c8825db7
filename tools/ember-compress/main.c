/* ember-compress: a file compressed with the UEFI compression algorithm (UEFI 2.10,
 * chapter 19), or decompressed with -d, as EFI_DECOMPRESS_PROTOCOL and compressed option
 * ROM images take it.
 *
 *     ember-compress IN OUT        compress
 *     ember-compress -d IN OUT     decompress (checks the stream as the firmware does) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ember/lib/uefi_decompress.h>
#include <ember/tools/host_file.h>
#include <ember/tools/uefi_compress.h>

static uint8_t *decompress(const uint8_t *in, size_t size, size_t *out_size)
{
	uint32_t dst_size, scratch_size;
	enum uefi_decompress_result r;
	uint8_t *out, *scratch;

	r = uefi_decompress_get_info(in, size, &dst_size, &scratch_size);
	if (r != UEFI_DECOMPRESS_OK) {
		fprintf(stderr, "ember-compress: %s\n", uefi_decompress_result_name(r));
		return NULL;
	}
	out = malloc(dst_size ? dst_size : 1);
	scratch = malloc(scratch_size);
	if (!out || !scratch) {
		fprintf(stderr, "ember-compress: out of memory\n");
		free(out);
		free(scratch);
		return NULL;
	}
	r = uefi_decompress(in, size, out, dst_size, scratch, scratch_size);
	free(scratch);
	if (r != UEFI_DECOMPRESS_OK) {
		fprintf(stderr, "ember-compress: corrupt stream: %s\n",
			uefi_decompress_result_name(r));
		free(out);
		return NULL;
	}
	*out_size = dst_size;
	return out;
}

int main(int argc, char **argv)
{
	int unpack = argc == 4 && strcmp(argv[1], "-d") == 0;
	size_t size, out_size = 0;
	uint8_t *in, *out;

	if (argc != 3 && !unpack) {
		fprintf(stderr, "usage: ember-compress [-d] IN OUT\n");
		return 2;
	}
	in = host_file_read(argv[argc - 2], &size);
	if (!in) {
		perror(argv[argc - 2]);
		return 1;
	}
	out = unpack ? decompress(in, size, &out_size) : uefi_compress(in, size, &out_size);
	free(in);
	if (!out) {
		if (!unpack)
			fprintf(stderr, "ember-compress: out of memory\n");
		return 1;
	}
	if (host_file_write(argv[argc - 1], out, out_size) != 0) {
		perror(argv[argc - 1]);
		free(out);
		return 1;
	}
	free(out);
	return 0;
}
