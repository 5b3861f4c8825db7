/* The USB mass storage driver (drivers/usb/mass_storage) over a Bulk-Only Transport device
 * in memory (fake_usb_bot.c) on the fake USB host controller: Get Max LUN, the SCSI bus and
 * disk drivers binding above its pass-thru (USB(port,0)/Scsi(0,lun) with BlockIo), reads and
 * writes through CBW, data and CSW, a failed command's sense read with REQUEST SENSE, and the
 * recoveries: a stalled data stage, a stalled status stage, a phase error and a CSW with a
 * wrong tag (reset recovery: the reset and both halts cleared). */
#include <stdlib.h>
#include <string.h>

#include "block_dev.h"
#include "fake_usb_bot.h"
#include "scsi_test_util.h"
#include "support/test.h"
#include <efi/protocol/ext_scsi_pass_thru.h>
#include <ember/core/core.h>
#include <ember/lib/guids.h>

#define IF_PATH u"PciRoot(0x0)/Pci(0x1,0x0)/USB(0x1,0x0)"
#define DISK_PATH IF_PATH u"/Scsi(0x0,0x0)"
#define BLOCKS 4096

static struct fake_usb_hc *plug(struct fake_usb_bot *b)
{
	struct fake_usb_hc *f;

	test_install_builtin_drivers();
	f = fake_usb_hc_create();
	if (!f)
		return NULL;
	fake_usb_hc_plug(f, 1, &b->dev);
	driver_connect(f->handle, NULL, NULL, true);
	return f;
}

/* READ (10) of blocks from lba through the pass-thru; its status, the packet kept. */
static EFI_STATUS read10(EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt, UINT32 lba, UINT16 blocks, void *buf,
			 EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET *p, UINT8 *sense)
{
	static UINT8 cdb[10];
	UINT8 target[TARGET_MAX_BYTES] = {0};

	memset(cdb, 0, sizeof(cdb));
	cdb[0] = 0x28;
	cdb[2] = (UINT8)(lba >> 24), cdb[3] = (UINT8)(lba >> 16), cdb[4] = (UINT8)(lba >> 8);
	cdb[5] = (UINT8)lba, cdb[7] = (UINT8)(blocks >> 8), cdb[8] = (UINT8)blocks;
	memset(p, 0, sizeof(*p));
	p->Timeout = 10000000;
	p->InDataBuffer = buf;
	p->InTransferLength = blocks * 512u;
	p->SenseData = sense;
	p->SenseDataLength = 18;
	p->Cdb = cdb;
	p->CdbLength = 10;
	p->DataDirection = EFI_EXT_SCSI_DATA_DIRECTION_READ;
	return pt->PassThru(pt, target, 0, p, NULL);
}

static void disk_body(void)
{
	static struct fake_usb_bot b;
	struct fake_usb_hc *f;
	EFI_BLOCK_IO_PROTOCOL *bio;
	UINT8 *buf = malloc(8192);

	fake_usb_bot_init(&b);
	ASSERT(fake_scsi_add(&b.scsi, 0, 0, 0, 512, BLOCKS));
	f = plug(&b);
	ASSERT(f);
	bio = scsi_test_protocol(DISK_PATH, &efi_block_io_protocol_guid);
	ASSERT(bio);
	EXPECT_EQ(bio->Media->LastBlock, BLOCKS - 1);
	EXPECT_EQ(bio->Media->BlockSize, 512);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 7, 8192, buf), EFI_SUCCESS);
	EXPECT(scsi_test_holds(buf, b.scsi.lus[0].seed, 7 * 512, 8192));
	memset(buf, 0x5a, 512);
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 3, 512, buf), EFI_SUCCESS);
	memset(buf, 0, 512);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, 512, buf), EFI_SUCCESS);
	EXPECT_EQ(buf[0], 0x5a);
	EXPECT_EQ(buf[511], 0x5a);
	EXPECT_EQ(b.resets, 0);
	EXPECT_EQ(b.host_errors, 0);
	EXPECT_EQ(f->errors, 0);
	fake_usb_hc_destroy(f);
	EXPECT(!scsi_test_handle(DISK_PATH));
	fake_scsi_free(&b.scsi);
	free(buf);
}

TEST(usb_mass_storage_disk_reads_and_writes)
{
	RUN_ISOLATED(disk_body);
}

static void luns_body(void)
{
	static struct fake_usb_bot b;
	struct fake_usb_hc *f;

	fake_usb_bot_init(&b);
	b.max_lun = 1;
	ASSERT(fake_scsi_add(&b.scsi, 0, 0, 0, 512, BLOCKS));
	ASSERT(fake_scsi_add(&b.scsi, 0, 1, 5, 2048, 100));
	f = plug(&b);
	ASSERT(f);
	EXPECT(scsi_test_protocol(DISK_PATH, &efi_block_io_protocol_guid) != NULL);
	EXPECT(scsi_test_protocol(IF_PATH u"/Scsi(0x0,0x1)", &efi_block_io_protocol_guid) != NULL);
	EXPECT_EQ(b.host_errors, 0);
	fake_usb_hc_destroy(f);
	fake_scsi_free(&b.scsi);
}

TEST(usb_mass_storage_get_max_lun_gives_each_lun_a_disk)
{
	RUN_ISOLATED(luns_body);
}

static void recovery_body(void)
{
	static struct fake_usb_bot b;
	EFI_EXT_SCSI_PASS_THRU_SCSI_REQUEST_PACKET p;
	EFI_EXT_SCSI_PASS_THRU_PROTOCOL *pt;
	struct fake_usb_hc *f;
	UINT8 buf[1024], sense[18];

	fake_usb_bot_init(&b);
	ASSERT(fake_scsi_add(&b.scsi, 0, 0, 0, 512, BLOCKS));
	f = plug(&b);
	ASSERT(f);
	pt = scsi_test_protocol(IF_PATH, &efi_ext_scsi_pass_thru_protocol_guid);
	ASSERT(pt);
	/* A stalled data stage: the halt cleared, the CSW read, the sense fetched. */
	b.stall_data = true;
	EXPECT_STATUS(read10(pt, 0, 2, buf, &p, sense), EFI_SUCCESS);
	EXPECT_EQ(p.TargetStatus, EFI_EXT_SCSI_STATUS_TARGET_CHECK_CONDITION);
	EXPECT_EQ(p.InTransferLength, 0);
	EXPECT_EQ(p.SenseDataLength, 18);
	EXPECT_EQ(sense[2], 0x03); /* MEDIUM ERROR, from REQUEST SENSE */
	EXPECT_EQ(b.clears_in, 1);
	EXPECT_EQ(b.resets, 0);
	/* A stalled status stage: cleared, the CSW read again. */
	b.stall_csw = true;
	EXPECT_STATUS(read10(pt, 4, 2, buf, &p, sense), EFI_SUCCESS);
	EXPECT_EQ(p.TargetStatus, EFI_EXT_SCSI_STATUS_TARGET_GOOD);
	EXPECT_EQ(p.InTransferLength, 1024);
	EXPECT(scsi_test_holds(buf, b.scsi.lus[0].seed, 4 * 512, 1024));
	EXPECT_EQ(b.clears_in, 2);
	EXPECT_EQ(b.resets, 0);
	/* A phase error: reset recovery, the command failed, the next one fine. */
	b.phase_error = true;
	EXPECT_STATUS(read10(pt, 0, 1, buf, &p, sense), EFI_DEVICE_ERROR);
	EXPECT_EQ(p.InTransferLength, 0);
	EXPECT_EQ(b.resets, 1);
	EXPECT_EQ(b.clears_in, 3);
	EXPECT_EQ(b.clears_out, 1);
	EXPECT_STATUS(read10(pt, 9, 1, buf, &p, sense), EFI_SUCCESS);
	EXPECT(scsi_test_holds(buf, b.scsi.lus[0].seed, 9 * 512, 512));
	/* A CSW of another command is not valid: reset recovery too. */
	b.wrong_tag = true;
	EXPECT_STATUS(read10(pt, 0, 1, buf, &p, sense), EFI_DEVICE_ERROR);
	EXPECT_EQ(b.resets, 2);
	EXPECT_STATUS(read10(pt, 1, 1, buf, &p, sense), EFI_SUCCESS);
	EXPECT_EQ(b.host_errors, 0);
	EXPECT_EQ(f->errors, 0);
	fake_usb_hc_destroy(f);
	fake_scsi_free(&b.scsi);
}

TEST(usb_mass_storage_recovers_from_stalls_and_phase_errors)
{
	RUN_ISOLATED(recovery_body);
}
