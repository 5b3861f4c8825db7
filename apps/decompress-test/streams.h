/* The streams decompress-test decodes: inputs and their compressed forms made by Ember's
 * encoder at build time (apps/decompress-test/mkstreams, build/ember-compress). */
#ifndef DECOMPRESS_TEST_STREAMS_H
#define DECOMPRESS_TEST_STREAMS_H

#include <efi/types.h>

struct decompress_stream {
	const char *name;
	const UINT8 *orig;
	UINT32 orig_size;
	const UINT8 *packed;
	UINT32 packed_size;
};

extern const struct decompress_stream decompress_streams[];
extern const UINTN decompress_stream_count;

#endif
