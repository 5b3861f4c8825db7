/* The AHCI driver (drivers/ahci) through the UEFI driver model on a fake HBA (fake_ahci.h):
 * children with BlockIo, BlockIo2 and Sata() paths, disk media from IDENTIFY DEVICE, reads
 * and writes of one and many blocks (PRDT entries and commands split as the spec bounds
 * them), flush, 28-bit disks, slow devices, DMA through bounce buffers and away from host
 * addresses, and everything given back at Stop. Errors are in test_ahci_errors.c, Start
 * and Stop in test_ahci_start.c, the CD-ROM in test_ahci_atapi.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "support/test.h"
#include "block_dev.h"
#include "test_ahci.h"
#include <efi/protocol/disk_info.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define MIB (1024 * 1024ULL)

static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static const EFI_GUID bio2_guid = EFI_BLOCK_IO2_PROTOCOL_GUID;
static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* ---- What the AHCI tests share (test_ahci.h) ---- */

struct fake_ahci *ahci_test_hba(UINT8 pci_dev, UINT32 ports_implemented)
{
	struct fake_ahci *a;

	test_install_builtin_drivers();
	a = fake_ahci_create(pci_dev, ports_implemented);
	if (a) {
		a->pci->attributes = AHCI_TEST_ATTRIBUTES;
		a->pci->config[PCI_COMMAND_OFFSET] = PCI_COMMAND_IO_SPACE;
	}
	return a;
}

EFI_STATUS ahci_test_connect(struct fake_ahci *a)
{
	return driver_connect(a->pci->handle, NULL, NULL, false);
}

EFI_HANDLE ahci_test_child(struct fake_ahci *a, UINT8 port)
{
	SATA_DEVICE_PATH node = {
	    .Header = {MESSAGING_DEVICE_PATH, MSG_SATA_DP, {sizeof(SATA_DEVICE_PATH), 0}},
	    .HBAPortNumber = port,
	    .PortMultiplierPortNumber = 0xffff,
	};
	EFI_DEVICE_PATH_PROTOCOL *want = dp_append_node(&a->pci->path.root.Header, &node.Header);
	EFI_DEVICE_PATH_PROTOCOL *rest = want;
	EFI_HANDLE handle = NULL;

	if (EFI_ERROR(handle_locate_device_path(&bio_guid, &rest, &handle)) || !dp_is_end(rest))
		handle = NULL;
	pool_free(want);
	return handle;
}

EFI_BLOCK_IO_PROTOCOL *ahci_test_block_io(struct fake_ahci *a, UINT8 port)
{
	EFI_HANDLE child = ahci_test_child(a, port);
	EFI_BLOCK_IO_PROTOCOL *bio = NULL;

	if (child)
		protocol_get(child, &bio_guid, (void **)&bio);
	return bio;
}

EFI_BLOCK_IO2_PROTOCOL *ahci_test_block_io2(struct fake_ahci *a, UINT8 port)
{
	EFI_HANDLE child = ahci_test_child(a, port);
	EFI_BLOCK_IO2_PROTOCOL *bio2 = NULL;

	if (child)
		protocol_get(child, &bio2_guid, (void **)&bio2);
	return bio2;
}

UINT8 *ahci_test_image(UINT64 bytes, UINT64 seed)
{
	UINT8 *p = malloc(bytes);

	for (UINT64 off = 0; p && off + 8 <= bytes; off += 8) {
		UINT64 v = off + seed;
		memcpy(p + off, &v, 8);
	}
	return p;
}

bool ahci_test_image_at(const UINT8 *buffer, UINT64 bytes, UINT64 offset, UINT64 seed)
{
	for (UINT64 i = 0; i + 8 <= bytes; i += 8) {
		UINT64 v;
		memcpy(&v, buffer + i, 8);
		if (v != offset + i + seed)
			return false;
	}
	return true;
}

void ahci_test_expect_no_errors(struct fake_ahci *a)
{
	if (!EXPECT_EQ(a->pci->errors, 0))
		printf("    the fake saw: %s\n", a->pci->last_error);
}

void ahci_test_expect_released(struct fake_ahci *a)
{
	EXPECT_STATUS(driver_disconnect(a->pci->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT(fake_pci_io_unclaimed(a->pci));
	EXPECT_EQ(a->pci->attributes, AHCI_TEST_ATTRIBUTES);
	EXPECT_EQ(a->pci->live_buffers, 0);
	EXPECT_EQ(a->pci->live_maps, 0);
	for (UINT8 i = 0; i < FAKE_AHCI_PORTS; i++) {
		struct fake_ahci_port *p = &a->ports[i];

		if (!(a->pi & (1u << i)))
			continue;
		EXPECT(ahci_test_child(a, i) == NULL);
		EXPECT_EQ(p->cmd & 0xc011, 0); /* ST, FRE, FR, CR */
		EXPECT_EQ(p->clb | p->clbu | p->fb | p->fbu, 0);
	}
	ahci_test_expect_no_errors(a);
}

/* ---- Tests ---- */

static struct fake_ahci *hba_with_disk(UINT8 *image, UINT64 bytes, UINT32 sector_size)
{
	struct fake_ahci *a = ahci_test_hba(0x1f, 0x1);
	struct fake_ahci_disk disk = {
	    .data = image, .sectors = bytes / sector_size, .sector_size = sector_size};

	fake_ahci_attach_disk(a, 0, &disk);
	return a;
}

static CHAR16 *path_text(EFI_HANDLE handle)
{
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;

	if (EFI_ERROR(protocol_get(handle, &path_guid, (void **)&path)))
		return NULL;
	return dp_to_text(path, false, false);
}

TEST(ahci_start_gives_each_device_a_sata_child)
{
	UINT8 *image = ahci_test_image(MIB, 0);
	struct fake_ahci *a = ahci_test_hba(0x1f, 0x2f); /* ports 0-3 and 5 */
	struct fake_ahci_disk disk = {.data = image, .sectors = MIB / 512};
	struct fake_ahci_cd cd = {0};
	EFI_HANDLE disk_child, cd_child;
	CHAR16 *text;

	fake_ahci_attach_disk(a, 0, &disk);
	fake_ahci_attach_cd(a, 2, &cd);
	fake_ahci_attach_disk(a, 5, &disk);
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	disk_child = ahci_test_child(a, 0);
	cd_child = ahci_test_child(a, 2);
	ASSERT(disk_child && cd_child && ahci_test_child(a, 5));
	EXPECT(ahci_test_child(a, 1) == NULL);
	EXPECT(ahci_test_child(a, 3) == NULL);
	EXPECT(ahci_test_block_io2(a, 0) != NULL);
	EXPECT(ahci_test_block_io2(a, 2) != NULL);
	text = path_text(cd_child);
	EXPECT(text && str16_cmp(text, u"PciRoot(0x0)/Pci(0x1F,0x2)/Sata(0x2,0xFFFF,0x0)") == 0);
	pool_free(text);
	/* Memory decoding, bus mastering, and 64-bit DMA since CAP.S64A says the HBA has it. */
	EXPECT_EQ(a->pci->attributes, AHCI_TEST_ATTRIBUTES | EFI_PCI_IO_ATTRIBUTE_MEMORY |
					  EFI_PCI_IO_ATTRIBUTE_BUS_MASTER |
					  EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE);
	EXPECT(a->ghc & (1u << 31));
	EXPECT_EQ(a->resets, 1);
	EXPECT_EQ(a->ports[0].identifies, 1);
	/* One page of command list, FIS area and tables per port with a device. */
	EXPECT_EQ(a->pci->live_buffers, 3);
	EXPECT_EQ(a->pci->live_maps, 3);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
}

TEST(ahci_disk_media_come_from_identify)
{
	UINT8 *image = ahci_test_image(MIB, 0);
	struct fake_ahci *a = hba_with_disk(image, MIB, 512);
	EFI_BLOCK_IO_PROTOCOL *bio;

	a->ports[0].disk.write_cache = true;
	fake_ahci_build_identify(&a->ports[0]);
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_EQ(bio->Revision, EFI_BLOCK_IO_PROTOCOL_REVISION3);
	EXPECT(bio->Media->MediaPresent);
	EXPECT(!bio->Media->RemovableMedia);
	EXPECT(!bio->Media->ReadOnly);
	EXPECT(!bio->Media->LogicalPartition);
	EXPECT(bio->Media->WriteCaching);
	EXPECT_EQ(bio->Media->BlockSize, 512);
	EXPECT_EQ(bio->Media->LastBlock, MIB / 512 - 1);
	EXPECT_EQ(bio->Media->IoAlign, 2);
	EXPECT_EQ(bio->Media->LogicalBlocksPerPhysicalBlock, 1);
	EXPECT_EQ(bio->Media->LowestAlignedLba, 0);
	EXPECT(ahci_test_block_io2(a, 0)->Media == bio->Media);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
}

TEST(ahci_disk_of_4096_byte_sectors)
{
	UINT8 *image = ahci_test_image(4 * MIB, 0), *buf = malloc(3 * 4096);
	struct fake_ahci *a = hba_with_disk(image, 4 * MIB, 4096);
	EFI_BLOCK_IO_PROTOCOL *bio;

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_EQ(bio->Media->BlockSize, 4096);
	EXPECT_EQ(bio->Media->LastBlock, 1023);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 100, 3 * 4096, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, 3 * 4096, 100 * 4096, 0));
	EXPECT_EQ(a->ports[0].sectors_read, 3);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 512, buf), EFI_BAD_BUFFER_SIZE);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
	free(buf);
}

/* 512-byte logical sectors on 4 KiB physical ones, LBA 0 one sector into the first. */
TEST(ahci_disk_reports_its_physical_sectors)
{
	UINT8 *image = ahci_test_image(MIB, 0);
	struct fake_ahci *a = ahci_test_hba(0x1f, 0x1);
	struct fake_ahci_disk disk = {
	    .data = image, .sectors = MIB / 512, .physical_shift = 3, .alignment = 1};
	EFI_BLOCK_IO_PROTOCOL *bio;

	fake_ahci_attach_disk(a, 0, &disk);
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_EQ(bio->Media->BlockSize, 512);
	EXPECT_EQ(bio->Media->LogicalBlocksPerPhysicalBlock, 8);
	EXPECT_EQ(bio->Media->LowestAlignedLba, 7);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
}

TEST(ahci_disk_reads_and_writes_blocks)
{
	UINT8 *image = ahci_test_image(MIB, 0), *buf = malloc(8192),
	      *data = ahci_test_image(8192, 77);
	struct fake_ahci *a = hba_with_disk(image, MIB, 512);
	struct fake_ahci_port *p = &a->ports[0];
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT32 id;

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	id = bio->Media->MediaId;
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 5, 512, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, 512, 5 * 512, 0));
	EXPECT_EQ(p->last_command, 0x25); /* READ DMA EXT */
	EXPECT_EQ(p->last_lba, 5);
	EXPECT_EQ(p->max_prdt, 1);
	EXPECT_STATUS(bio->ReadBlocks(bio, id, MIB / 512 - 16, 8192, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, 8192, MIB - 8192, 0));
	EXPECT_STATUS(bio->WriteBlocks(bio, id, 40, 8192, data), EFI_SUCCESS);
	EXPECT_EQ(p->last_command, 0x35); /* WRITE DMA EXT */
	EXPECT(memcmp(image + 40 * 512, data, 8192) == 0);
	EXPECT(ahci_test_image_at(image + 39 * 512, 512, 39 * 512, 0));
	EXPECT(ahci_test_image_at(image + 56 * 512, 512, 56 * 512, 0));
	EXPECT_EQ(p->reads, 2);
	EXPECT_EQ(p->writes, 1);
	EXPECT_EQ(p->sectors_written, 16);
	/* What the front end refuses never reaches the disk. */
	EXPECT_STATUS(bio->ReadBlocks(bio, id, MIB / 512, 512, buf), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bio->ReadBlocks(bio, id + 1, 0, 512, buf), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(bio->ReadBlocks(bio, id, 0, 512, buf + 1), EFI_INVALID_PARAMETER);
	EXPECT_EQ(p->reads, 2);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
	free(buf);
	free(data);
}

static void EFIAPI count_signal(EFI_EVENT event, void *context)
{
	(*(int *)context)++;
}

TEST(ahci_disk_block_io2_completes_tokens)
{
	UINT8 *image = ahci_test_image(MIB, 0), *buf = malloc(4096);
	struct fake_ahci *a = hba_with_disk(image, MIB, 512);
	EFI_BLOCK_IO2_PROTOCOL *bio2;
	EFI_BLOCK_IO2_TOKEN token = {0};
	int signals = 0;

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio2 = ahci_test_block_io2(a, 0);
	ASSERT(bio2 != NULL);
	ASSERT_STATUS(event_create(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_signal, &signals, NULL,
				   &token.Event),
		      EFI_SUCCESS);
	token.TransactionStatus = EFI_NOT_READY;
	EXPECT_STATUS(bio2->ReadBlocksEx(bio2, bio2->Media->MediaId, 8, &token, 4096, buf),
		      EFI_SUCCESS);
	EXPECT_STATUS(token.TransactionStatus, EFI_SUCCESS);
	EXPECT_EQ(signals, 1);
	EXPECT(ahci_test_image_at(buf, 4096, 8 * 512, 0));
	memset(buf, 0x5a, 4096);
	EXPECT_STATUS(bio2->WriteBlocksEx(bio2, bio2->Media->MediaId, 0, NULL, 4096, buf),
		      EFI_SUCCESS);
	EXPECT_EQ(image[4095], 0x5a);
	EXPECT_STATUS(bio2->FlushBlocksEx(bio2, &token), EFI_SUCCESS);
	EXPECT_EQ(signals, 2);
	EXPECT_EQ(a->ports[0].flushes, 1);
	EXPECT_STATUS(bio2->Reset(bio2, FALSE), EFI_SUCCESS);
	event_close(token.Event);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
	free(buf);
}

TEST(ahci_disk_flush_sends_flush_cache_ext)
{
	UINT8 *image = ahci_test_image(MIB, 0);
	struct fake_ahci *a = hba_with_disk(image, MIB, 512);
	EFI_BLOCK_IO_PROTOCOL *bio;

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(a->ports[0].flushes, 1);
	EXPECT_EQ(a->ports[0].last_command, 0xea);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
}

/* A transfer larger than one command carries: 65536 sectors (32 MiB, eight PRDT entries of
 * 4 MiB) per READ DMA EXT, then the rest. */
TEST(ahci_disk_splits_large_transfers)
{
	const UINT64 disk_bytes = 48 * MIB, len = 40 * MIB + 4096;
	UINT8 *image = ahci_test_image(disk_bytes, 0), *buf = malloc(len);
	struct fake_ahci *a = hba_with_disk(image, disk_bytes, 512);
	struct fake_ahci_port *p = &a->ports[0];
	EFI_BLOCK_IO_PROTOCOL *bio;

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, len, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, len, 3 * 512, 0));
	EXPECT_EQ(p->reads, 2);
	EXPECT_EQ(p->max_prdt, 8);
	EXPECT_EQ(p->max_bytes, 32 * MIB);
	EXPECT_EQ(p->sectors_read, len / 512);
	EXPECT_EQ(p->last_lba, 3 + 65536);
	memset(buf, 0xa5, len);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 1, len, buf), EFI_SUCCESS);
	EXPECT_EQ(p->writes, 2);
	EXPECT_EQ(image[512], 0xa5);
	EXPECT_EQ(image[512 + len - 1], 0xa5);
	EXPECT(ahci_test_image_at(image + 512 + len, 512, 512 + len, 0));
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
	free(buf);
}

/* Without the 48-bit feature set: READ/WRITE DMA of at most 256 sectors, LBA bits 27:24 in
 * the device register, FLUSH CACHE. */
TEST(ahci_disk_without_lba48_uses_28_bit_commands)
{
	/* Past 2^24 sectors, where the LBA needs the device register's bits; sparse memory. */
	const UINT64 bytes = ((1ULL << 24) + 1024) * 512;
	UINT8 *image = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	UINT8 *buf = malloc(300 * 512), *check = ahci_test_image(300 * 512, 9);
	struct fake_ahci *a = ahci_test_hba(0x1f, 0x1);
	struct fake_ahci_disk disk = {.data = image, .sectors = bytes / 512, .lba28 = true};
	struct fake_ahci_port *p = &a->ports[0];
	EFI_BLOCK_IO_PROTOCOL *bio;
	const EFI_LBA lba = (1u << 24) + 5;

	ASSERT(image != MAP_FAILED);
	fake_ahci_attach_disk(a, 0, &disk);
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_EQ(bio->Media->LastBlock, bytes / 512 - 1);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, lba, 300 * 512, check),
		      EFI_SUCCESS);
	EXPECT_EQ(p->last_command, 0xca); /* WRITE DMA */
	EXPECT_EQ(p->writes, 2);
	EXPECT(memcmp(image + lba * 512, check, 300 * 512) == 0);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, lba, 300 * 512, buf), EFI_SUCCESS);
	EXPECT_EQ(p->last_command, 0xc8); /* READ DMA */
	EXPECT_EQ(p->reads, 2);
	EXPECT_EQ(p->last_lba, lba + 256);
	EXPECT(memcmp(buf, check, 300 * 512) == 0);
	EXPECT_STATUS(bio->FlushBlocks(bio), EFI_SUCCESS);
	EXPECT_EQ(p->last_command, 0xe7); /* FLUSH CACHE */
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	munmap(image, bytes);
	free(buf);
	free(check);
}

/* A device that takes its time at every step: the link, its first FIS, each command. */
TEST(ahci_slow_device_is_waited_for)
{
	UINT8 *image = ahci_test_image(MIB, 0), *buf = malloc(4096);
	struct fake_ahci *a = ahci_test_hba(0x1f, 0x1);
	struct fake_ahci_disk disk = {.data = image, .sectors = MIB / 512};
	struct fake_ahci_port *p = &a->ports[0];
	EFI_BLOCK_IO_PROTOCOL *bio;

	a->reset_ns = 2000000;
	p->link_ns = 5000000;
	p->ready_ns = 200000000;
	p->command_ns = 3000000;
	fake_ahci_attach_disk(a, 0, &disk);
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 1, 4096, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, 4096, 512, 0));
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
	free(buf);
}

/* Staggered spin-up (CAP.SSS): a link comes up only once the driver sets PxCMD.SUD. */
TEST(ahci_staggered_spin_up_starts_the_links)
{
	UINT8 *image = ahci_test_image(MIB, 0);
	struct fake_ahci *a = ahci_test_hba(0x1f, 0x3);
	struct fake_ahci_disk disk = {.data = image, .sectors = MIB / 512};

	a->cap |= 1u << 27;
	fake_ahci_attach_disk(a, 1, &disk);
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT(ahci_test_child(a, 1) != NULL);
	EXPECT(a->ports[1].cmd & 0x2); /* SUD */
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
}

/* An HBA without 64-bit addressing: no DUAL_ADDRESS_CYCLE, so buffers above 4 GiB go through
 * the root bridge's bounce buffers, and the data still arrives. */
TEST(ahci_hba_without_s64a_gets_bounced_buffers)
{
	UINT8 *image = ahci_test_image(MIB, 0), *buf = malloc(64 * 1024);
	struct fake_ahci *a = hba_with_disk(image, MIB, 512);
	EFI_BLOCK_IO_PROTOCOL *bio;

	ASSERT((UINT64)(uintptr_t)buf >> 32); /* else this test proves nothing */
	a->cap &= ~(1u << 31);
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	EXPECT(!(a->pci->attributes & EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE));
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 10, 64 * 1024, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, 64 * 1024, 10 * 512, 0));
	memset(buf, 0x3c, 64 * 1024);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 0, 64 * 1024, buf), EFI_SUCCESS);
	EXPECT_EQ(image[64 * 1024 - 1], 0x3c);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
	free(buf);
}

/* Device addresses that are not host addresses (an IOMMU, a bridge offset): the driver must
 * hand the HBA what Map returned, never its own pointers. */
TEST(ahci_dma_uses_device_addresses)
{
	UINT8 *image = ahci_test_image(MIB, 0), *buf = malloc(8192);
	struct fake_ahci *a = hba_with_disk(image, MIB, 512);
	EFI_BLOCK_IO_PROTOCOL *bio;

	a->pci->faults.dma_offset = 1ULL << 40;
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 2, 8192, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, 8192, 1024, 0));
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 2, 8192, buf), EFI_SUCCESS);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
	free(buf);
}

/* Map may cover less than asked: the driver goes on with what was mapped. */
TEST(ahci_short_mappings_give_more_commands)
{
	UINT8 *image = ahci_test_image(MIB, 0), *buf = malloc(32 * 1024);
	struct fake_ahci *a = hba_with_disk(image, MIB, 512);
	EFI_BLOCK_IO_PROTOCOL *bio;

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	a->pci->faults.map_limit = 4096 + 100;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 7, 32 * 1024, buf), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(buf, 32 * 1024, 7 * 512, 0));
	EXPECT_EQ(a->ports[0].reads, 8);
	EXPECT_EQ(a->ports[0].max_bytes, 4096);
	/* Map failing: nothing moves, nothing stays mapped. */
	a->pci->faults.map_fail_at = a->pci->map_calls + 1;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 7, 1024, buf),
		      EFI_OUT_OF_RESOURCES);
	EXPECT_EQ(a->ports[0].reads, 8);
	EXPECT_EQ(a->pci->live_maps, 1);
	/* Less than a block: nothing can move. */
	a->pci->faults.map_limit = 100;
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 7, 1024, buf),
		      EFI_OUT_OF_RESOURCES);
	EXPECT_EQ(a->ports[0].reads, 8);
	EXPECT_EQ(a->pci->live_maps, 1);
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
	free(buf);
}

/* A root bridge that cannot bounce hands out device addresses above 4 GiB; an HBA without
 * S64A cannot use them, so the transfer is refused rather than sent to the wrong place. */
TEST(ahci_refuses_buffers_beyond_a_32_bit_hba)
{
	UINT8 *image = ahci_test_image(MIB, 0), *high = malloc(4096), *low = pool_alloc(4096);
	struct fake_ahci *a = hba_with_disk(image, MIB, 512);
	EFI_BLOCK_IO_PROTOCOL *bio;

	ASSERT((UINT64)(uintptr_t)high >> 32);
	ASSERT(!((UINT64)(uintptr_t)low >> 32));
	a->cap &= ~(1u << 31);
	a->pci->faults.no_bounce = true;
	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	bio = ahci_test_block_io(a, 0);
	ASSERT(bio != NULL);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 4096, high),
		      EFI_OUT_OF_RESOURCES);
	EXPECT_EQ(a->ports[0].reads, 0);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 0, 4096, low), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(low, 4096, 0, 0));
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
	free(high);
	pool_free(low);
}

TEST(ahci_disk_info_names_the_ahci_interface_and_port)
{
	static const EFI_GUID guid = EFI_DISK_INFO_PROTOCOL_GUID;
	static const EFI_GUID ahci_interface = EFI_DISK_INFO_AHCI_INTERFACE_GUID;
	UINT8 *image = ahci_test_image(MIB, 0);
	struct fake_ahci *a = hba_with_disk(image, MIB, 512);
	EFI_DISK_INFO_PROTOCOL *info = NULL;
	UINT32 port = 0, pm = 0, size = 512;
	UINT16 id[256];

	ASSERT_STATUS(ahci_test_connect(a), EFI_SUCCESS);
	ASSERT_STATUS(protocol_get(ahci_test_child(a, 0), &guid, (void **)&info), EFI_SUCCESS);
	EXPECT(!memcmp(&info->Interface, &ahci_interface, sizeof(EFI_GUID)));
	ASSERT_STATUS(info->WhichIde(info, &port, &pm), EFI_SUCCESS);
	EXPECT_EQ(port, 0);
	EXPECT_EQ(pm, 0xffff);
	ASSERT_STATUS(info->Identify(info, id, &size), EFI_SUCCESS);
	EXPECT(!memcmp(id, a->ports[0].identify, sizeof(id)));
	ahci_test_expect_released(a);
	fake_ahci_destroy(a);
	free(image);
}
