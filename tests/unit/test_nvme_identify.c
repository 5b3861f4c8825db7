/* The NVMe driver's Identify parsers (drivers/nvme/nvme_identify.c) on data a controller
 * might send: what they take, and what they refuse (short data, queue entries of other
 * sizes, formats with metadata or blocks outside 512..64K, a format index past the list,
 * a size that overflows, namespace lists out of order or past NN). */
#include <string.h>

#include "support/test.h"
#include "../../drivers/nvme/nvme_identify.h"

static void put32(UINT8 *p, UINT32 v)
{
	memcpy(p, &v, 4);
}

static void controller(UINT8 *d)
{
	memset(d, 0, 4096);
	memcpy(d + 24, "QEMU NVMe Ctrl                          ", 40);
	d[77] = 5;
	d[512] = 0x66;
	d[513] = 0x44;
	put32(d + 516, 16);
	d[525] = 1;
}

TEST(nvme_identify_controller_is_read)
{
	UINT8 d[4096];
	struct nvme_ctrl_info info;

	controller(d);
	ASSERT_STATUS(nvme_parse_controller(d, sizeof(d), &info), EFI_SUCCESS);
	EXPECT(strcmp(info.model, "QEMU NVMe Ctrl") == 0);
	EXPECT_EQ(info.max_transfer, 128 * 1024);
	EXPECT_EQ(info.namespaces, 16);
	EXPECT(info.volatile_cache);
	d[77] = 0;    /* no limit */
	d[512] = 0;   /* before 1.2: nothing said */
	d[24] = 0x01; /* not printable */
	ASSERT_STATUS(nvme_parse_controller(d, sizeof(d), &info), EFI_SUCCESS);
	EXPECT_EQ(info.max_transfer, 0);
	EXPECT_EQ(info.model[0], '?');
}

TEST(nvme_identify_controller_refusals)
{
	UINT8 d[4096];
	struct nvme_ctrl_info info;

	controller(d);
	EXPECT_STATUS(nvme_parse_controller(d, 4095, &info), EFI_DEVICE_ERROR);
	d[512] = 0x77; /* 128-byte submission entries required */
	EXPECT_STATUS(nvme_parse_controller(d, sizeof(d), &info), EFI_UNSUPPORTED);
	d[512] = 0x66;
	d[513] = 0x33; /* 8-byte completion entries at most */
	EXPECT_STATUS(nvme_parse_controller(d, sizeof(d), &info), EFI_UNSUPPORTED);
	d[513] = 0x44;
	d[77] = 60; /* MDTS past anything: taken as no limit, never a shift of 60 */
	ASSERT_STATUS(nvme_parse_controller(d, sizeof(d), &info), EFI_SUCCESS);
	EXPECT_EQ(info.max_transfer, 0);
}

static void name_space(UINT8 *d, UINT64 blocks, UINT8 shift)
{
	memset(d, 0, 4096);
	memcpy(d, &blocks, 8);
	d[25] = 1;	    /* two formats */
	d[26] = 1;	    /* the second in use */
	d[128 + 2] = 9;	    /* format 0: 512 */
	d[132 + 2] = shift; /* format 1 */
	for (int i = 0; i < 8; i++)
		d[120 + i] = (UINT8)(0xa0 + i);
}

TEST(nvme_identify_namespace_is_read)
{
	UINT8 d[4096];
	struct nvme_ns_info info;

	name_space(d, 1000, 12);
	ASSERT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_SUCCESS);
	EXPECT_EQ(info.blocks, 1000);
	EXPECT_EQ(info.block_shift, 12);
	EXPECT_EQ(info.eui64[0], 0xa0);
	EXPECT_EQ(info.eui64[7], 0xa7);
	name_space(d, 1, 16); /* 64 KiB blocks */
	EXPECT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_SUCCESS);
	/* Format 17 from NVMe 2.0: FLBAS [6:5] are its high bits. */
	name_space(d, 8, 9);
	d[25] = 20;
	d[26] = 0x21;
	d[128 + 4 * 17 + 2] = 12;
	ASSERT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_SUCCESS);
	EXPECT_EQ(info.block_shift, 12);
}

TEST(nvme_identify_namespace_refusals)
{
	UINT8 d[4096];
	struct nvme_ns_info info;

	name_space(d, 0, 9);
	EXPECT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_NOT_FOUND);
	name_space(d, 8, 9);
	EXPECT_STATUS(nvme_parse_namespace(d, 383, &info), EFI_DEVICE_ERROR);
	d[26] = 2; /* format 2 of 2 */
	EXPECT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_DEVICE_ERROR);
	name_space(d, 8, 8);
	EXPECT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_UNSUPPORTED);
	name_space(d, 8, 17);
	EXPECT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_UNSUPPORTED);
	name_space(d, 8, 12);
	d[132] = 8; /* 8 bytes of metadata */
	EXPECT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_UNSUPPORTED);
	/* 2^53 blocks of 4 KiB do not fit in 64 bits of bytes; 2^51 do. */
	name_space(d, 1ull << 53, 12);
	EXPECT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_DEVICE_ERROR);
	name_space(d, (1ull << 52) - 1, 12);
	EXPECT_STATUS(nvme_parse_namespace(d, sizeof(d), &info), EFI_SUCCESS);
}

TEST(nvme_active_namespace_list)
{
	UINT8 d[4096] = {0};
	UINT32 ids[4], count = 99;

	put32(d, 1);
	put32(d + 4, 2);
	put32(d + 8, 7);
	ASSERT_STATUS(nvme_parse_ns_list(d, sizeof(d), 0, 16, ids, 4, &count), EFI_SUCCESS);
	EXPECT_EQ(count, 3);
	EXPECT_EQ(ids[2], 7);
	/* At most max IDs; none above after that are not above it. */
	ASSERT_STATUS(nvme_parse_ns_list(d, sizeof(d), 0, 16, ids, 2, &count), EFI_SUCCESS);
	EXPECT_EQ(count, 2);
	EXPECT_STATUS(nvme_parse_ns_list(d, sizeof(d), 1, 16, ids, 4, &count), EFI_DEVICE_ERROR);
	EXPECT_STATUS(nvme_parse_ns_list(d, sizeof(d), 0, 6, ids, 4, &count), EFI_DEVICE_ERROR);
	put32(d + 8, 2);
	EXPECT_STATUS(nvme_parse_ns_list(d, sizeof(d), 0, 16, ids, 4, &count), EFI_DEVICE_ERROR);
	put32(d + 8, 0xffffffff);
	EXPECT_STATUS(nvme_parse_ns_list(d, sizeof(d), 0, 0, ids, 4, &count), EFI_DEVICE_ERROR);
	/* Bounded by the size given: a last ID cut in two is not read. */
	ASSERT_STATUS(nvme_parse_ns_list(d, 11, 0, 16, ids, 4, &count), EFI_SUCCESS);
	EXPECT_EQ(count, 2);
}
