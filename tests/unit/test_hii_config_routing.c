/* EFI_HII_CONFIG_ROUTING_PROTOCOL (core/hii/config_routing.c, config_block.c): block
 * conversions, routing to a driver's Config Access by PATH, GetAltConfig, and the status
 * and Progress of each malformed string. */
#include <stdio.h>
#include <string.h>
#include "support/test.h"
#include <ember/core/core.h>
#include <ember/core/hii.h>
#include <ember/lib/guids.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/hii_config_access.h>
#include <efi/protocol/hii_config_routing.h>

/* GUID {0x01020304, 0x0506, 0x0708, {9..16}}, bytes in memory order. */
#define GUID_HEX "04030201060508070910111213141516"
/* A hardware vendor node of that GUID, then the end node. */
#define PATH_HEX                                                                                   \
	"0104140004030201060508070910111213141516"                                                 \
	"7fff0400"

static const UINT8 driver_path[] = {1, 4,    0x14, 0,	 4,    3,    2,	   1,	 6,    5,    8, 7,
				    9, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x7f, 0xff, 4, 0};

static UINT8 store[4] = {1, 2, 3, 4};
static unsigned extract_calls, route_calls;

static EFI_HII_CONFIG_ROUTING_PROTOCOL *routing(void)
{
	EFI_HII_CONFIG_ROUTING_PROTOCOL *p = NULL;

	hii_publish();
	protocol_locate(&efi_hii_config_routing_protocol_guid, (void **)&p);
	return p;
}

static CHAR16 *widen(const char *text)
{
	static CHAR16 bufs[4][512];
	static unsigned next;
	CHAR16 *w = bufs[next++ % 4];
	size_t n = strlen(text);

	for (size_t i = 0; i <= n; i++)
		w[i] = (CHAR16)(unsigned char)text[i];
	return w;
}

static bool equals(const CHAR16 *w, const char *text)
{
	size_t n = strlen(text);

	for (size_t i = 0; i < n; i++) {
		if (w[i] != (CHAR16)(unsigned char)text[i])
			return false;
	}
	return w[n] == 0;
}

static EFI_STATUS EFIAPI fake_extract(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This,
				      const EFI_STRING Request, EFI_STRING *Progress,
				      EFI_STRING *Results)
{
	extract_calls++;
	return routing()->BlockToConfig(routing(), Request, store, sizeof(store), Results,
					Progress);
}

static EFI_STATUS EFIAPI fake_route(const EFI_HII_CONFIG_ACCESS_PROTOCOL *This,
				    const EFI_STRING Configuration, EFI_STRING *Progress)
{
	UINTN size = sizeof(store);

	route_calls++;
	return routing()->ConfigToBlock(routing(), Configuration, store, &size, Progress);
}

static EFI_HII_CONFIG_ACCESS_PROTOCOL fake_access = {fake_extract, fake_route, NULL};

static EFI_HANDLE fake_driver(void)
{
	static EFI_HANDLE handle;

	if (!handle)
		protocol_install_multiple(&handle, &efi_device_path_protocol_guid,
					  (void *)driver_path, &efi_hii_config_access_protocol_guid,
					  &fake_access, NULL);
	return handle;
}

TEST(hii_config_block_to_config)
{
	static const UINT8 block[] = {0x11, 0x22, 0x33};
	CHAR16 *req = widen("GUID=" GUID_HEX "&NAME=0041&PATH=" PATH_HEX
			    "&OFFSET=0&WIDTH=2&OFFSET=2&WIDTH=1");
	EFI_STRING config, progress;

	ASSERT_STATUS(
	    routing()->BlockToConfig(routing(), req, block, sizeof(block), &config, &progress),
	    EFI_SUCCESS);
	EXPECT(equals(config, "GUID=" GUID_HEX "&NAME=0041&PATH=" PATH_HEX
			      "&OFFSET=0&WIDTH=2&VALUE=2211&OFFSET=2&WIDTH=1&VALUE=33"));
	EXPECT(*progress == 0);
	pool_free(config);
	/* A byte past the block. */
	req = widen("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=2&WIDTH=2");
	EXPECT_STATUS(
	    routing()->BlockToConfig(routing(), req, block, sizeof(block), &config, &progress),
	    EFI_DEVICE_ERROR);
	EXPECT(config == NULL);
	/* Malformed: Progress at the bad WIDTH. */
	req = widen("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=0&WIDTH=q");
	EXPECT_STATUS(
	    routing()->BlockToConfig(routing(), req, block, sizeof(block), &config, &progress),
	    EFI_INVALID_PARAMETER);
	EXPECT(progress ==
	       req + strlen("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=0&WIDTH="));
	EXPECT_STATUS(routing()->BlockToConfig(routing(), NULL, block, 3, &config, &progress),
		      EFI_INVALID_PARAMETER);
}

TEST(hii_config_config_to_block)
{
	CHAR16 *resp = widen("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX
			     "&OFFSET=1&WIDTH=2&VALUE=beef&OFFSET=0&WIDTH=1&VALUE=5");
	UINT8 block[4] = {0};
	UINTN size = 2;
	EFI_STRING progress;

	EXPECT_STATUS(routing()->ConfigToBlock(routing(), resp, block, &size, &progress),
		      EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 3u);
	EXPECT(block[0] == 0 && block[1] == 0);
	size = sizeof(block);
	ASSERT_STATUS(routing()->ConfigToBlock(routing(), resp, block, &size, &progress),
		      EFI_SUCCESS);
	EXPECT(block[0] == 5 && block[1] == 0xef && block[2] == 0xbe && block[3] == 0);
	EXPECT_EQ(size, 2u);
	/* An element without VALUE: refused, nothing written. */
	resp = widen("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX
		     "&OFFSET=3&WIDTH=1&VALUE=9&OFFSET=0&WIDTH=1");
	size = sizeof(block);
	EXPECT_STATUS(routing()->ConfigToBlock(routing(), resp, block, &size, &progress),
		      EFI_INVALID_PARAMETER);
	EXPECT(block[3] == 0);
	EXPECT(progress > resp && *progress == 'O');
}

TEST(hii_config_extract_and_route)
{
	CHAR16 *req = widen("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=1&WIDTH=2");
	CHAR16 *other = widen("GUID=" GUID_HEX "&NAME=&PATH=7fff0400&OFFSET=1&WIDTH=2");
	CHAR16 *set = widen("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=3&WIDTH=1&VALUE=aa");
	EFI_STRING results, progress;

	fake_driver();
	ASSERT_STATUS(routing()->ExtractConfig(routing(), req, &progress, &results), EFI_SUCCESS);
	EXPECT(equals(results,
		      "GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=1&WIDTH=2&VALUE=0302"));
	pool_free(results);
	EXPECT_STATUS(routing()->ExtractConfig(routing(), other, &progress, &results),
		      EFI_NOT_FOUND);
	EXPECT(progress == other);
	route_calls = 0;
	ASSERT_STATUS(routing()->RouteConfig(routing(), set, &progress), EFI_SUCCESS);
	EXPECT(route_calls == 1 && store[3] == 0xaa);
	/* A driver's Progress comes back at the same place of the caller's string. */
	set = widen("GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=3&WIDTH=1&VALUE=aa"
		    "&GUID=" GUID_HEX "&NAME=&PATH=" PATH_HEX "&OFFSET=9&WIDTH=1&VALUE=1");
	EXPECT_STATUS(routing()->RouteConfig(routing(), set, &progress), EFI_BUFFER_TOO_SMALL);
	EXPECT_STATUS(routing()->RouteConfig(routing(), widen("GUID=1&NAME=&PATH=00"), &progress),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(routing()->RouteConfig(routing(), NULL, &progress), EFI_INVALID_PARAMETER);
}

TEST(hii_config_export)
{
	EFI_STRING results;

	fake_driver();
	extract_calls = 0;
	ASSERT_STATUS(routing()->ExportConfig(routing(), &results), EFI_SUCCESS);
	EXPECT(extract_calls >= 1);
	pool_free(results);
	EXPECT_STATUS(routing()->ExportConfig(routing(), NULL), EFI_INVALID_PARAMETER);
}

TEST(hii_config_get_alt_config)
{
	static const EFI_GUID guid = {
	    0x01020304, 0x0506, 0x0708, {9, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16}};
	CHAR16 *resp = widen(
	    "GUID=" GUID_HEX "&NAME=0041&PATH=" PATH_HEX "&OFFSET=0&WIDTH=1&VALUE=1"
	    "&GUID=" GUID_HEX "&NAME=0041&PATH=" PATH_HEX "&ALTCFG=0001&OFFSET=0&WIDTH=1&VALUE=7");
	UINT16 mfg = 1, other = 2;
	EFI_STRING alt;

	ASSERT_STATUS(routing()->GetAltConfig(routing(), resp, &guid, widen("A"),
					      (const EFI_DEVICE_PATH_PROTOCOL *)driver_path, &mfg,
					      &alt),
		      EFI_SUCCESS);
	EXPECT(
	    equals(alt, "GUID=" GUID_HEX "&NAME=0041&PATH=" PATH_HEX "&OFFSET=0&WIDTH=1&VALUE=7"));
	pool_free(alt);
	ASSERT_STATUS(routing()->GetAltConfig(routing(), resp, &guid, NULL, NULL, NULL, &alt),
		      EFI_SUCCESS);
	EXPECT(
	    equals(alt, "GUID=" GUID_HEX "&NAME=0041&PATH=" PATH_HEX "&OFFSET=0&WIDTH=1&VALUE=1"));
	pool_free(alt);
	EXPECT_STATUS(routing()->GetAltConfig(routing(), resp, &guid, NULL, NULL, &other, &alt),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(routing()->GetAltConfig(routing(), resp, &guid, widen("B"), NULL, &mfg, &alt),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(
	    routing()->GetAltConfig(routing(), widen("GUID=&"), NULL, NULL, NULL, NULL, &alt),
	    EFI_INVALID_PARAMETER);
}
