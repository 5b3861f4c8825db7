/* Fuzzes the reading of HII configuration strings (core/hii/config_string.c) and the
 * routing protocol's conversions over it (core/hii/config_block.c): the input's bytes as
 * the characters of a configuration string (one byte a character, so the corpus is
 * readable text), walked request by request; then BlockToConfig, ConfigToBlock and
 * GetAltConfig on it with a small block. Every place the parser reports must lie inside
 * the string, and ConfigToBlock must never write past the block it was given. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"
#include <stdlib.h>
#include <string.h>

#include <ember/core/core.h>
#include <ember/core/hii.h>
#include <ember/core/hii_config.h>
#include <ember/lib/guids.h>
#include <efi/protocol/hii_config_routing.h>

#define BLOCK_SIZE 16

static EFI_HII_CONFIG_ROUTING_PROTOCOL *routing;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	if (EFI_ERROR(hii_publish()) ||
	    EFI_ERROR(protocol_locate(&efi_hii_config_routing_protocol_guid, (void **)&routing)))
		abort();
	return 0;
}

static void walk(const CHAR16 *s, size_t len)
{
	struct hii_cfg c;

	hii_cfg_init(&c, s, len);
	while (!hii_cfg_done(&c)) {
		struct hii_cfg_hdr h;
		struct hii_cfg_elem e;
		UINT8 value[8];
		int r;

		if (!hii_cfg_header(&c, &h))
			break;
		while ((r = hii_cfg_element(&c, &e)) == 1) {
			if (e.block && e.has_value && e.width <= sizeof(value))
				hii_cfg_value(s + e.value_at, e.value_len, value, e.width);
		}
		if (r < 0)
			break;
	}
	if (c.at > len)
		abort();
}

static void conversions(const CHAR16 *s, size_t len)
{
	UINT8 *block = malloc(BLOCK_SIZE);
	UINTN size = BLOCK_SIZE;
	EFI_STRING out = NULL, progress = NULL;
	UINT16 alt = 0;

	memset(block, 0, BLOCK_SIZE);
	if (routing->BlockToConfig(routing, (EFI_STRING)s, block, BLOCK_SIZE, &out, &progress) ==
	    EFI_SUCCESS)
		pool_free(out);
	if (progress && (progress < s || progress > s + len))
		abort();
	routing->ConfigToBlock(routing, (EFI_STRING)s, block, &size, &progress);
	if (routing->GetAltConfig(routing, (EFI_STRING)s, NULL, NULL, NULL, &alt, &out) ==
	    EFI_SUCCESS)
		pool_free(out);
	free(block);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	CHAR16 *s = malloc((size + 1) * sizeof(CHAR16));
	size_t len = 0;

	if (!s)
		return 0;
	/* Up to the first NUL, as the protocol reads a caller's string. */
	while (len < size && data[len])
		s[len] = data[len], len++;
	s[len] = 0;
	walk(s, len);
	conversions(s, len);
	free(s);
	return 0;
}
