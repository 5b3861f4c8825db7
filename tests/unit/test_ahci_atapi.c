/* The AHCI driver's ATAPI CD-ROM drives (drivers/ahci/ahci_atapi.c) on the fake HBA
 * (fake_ahci.h): removable read-only media of 2048-byte blocks from READ CAPACITY, reads
 * through READ(10) in PACKET commands, a disc that arrives, is swapped or leaves (a new
 * MediaId with EFI_MEDIA_CHANGED or EFI_NO_MEDIA), a drive still spinning up, and failures
 * explained (or not) by REQUEST SENSE. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_ahci.h"
#include <ember/core/core.h>

#define MIB (1024 * 1024ULL)
#define BLOCK 2048

struct rig {
	struct fake_ahci *a;
	struct fake_ahci_port *p;
	UINT8 *disc, *buf;
	EFI_BLOCK_IO_PROTOCOL *bio;
};

/* A drive on port 0, with a disc of blocks blocks (seed 0) when blocks is not 0, on an HBA
 * whose CAP lacks cap_clear. */
static bool rig_up_cap(struct rig *r, UINT32 blocks, const struct fake_ahci_cd *extra,
		       UINT32 cap_clear)
{
	struct fake_ahci_cd cd = extra ? *extra : (struct fake_ahci_cd){0};

	r->disc = blocks ? ahci_test_image((UINT64)blocks * BLOCK, 0) : NULL;
	r->buf = malloc(64 * BLOCK);
	r->a = ahci_test_hba(0x1f, 0x1);
	r->a->cap &= ~cap_clear;
	r->p = &r->a->ports[0];
	cd.present = blocks != 0;
	cd.data = r->disc;
	cd.blocks = blocks;
	fake_ahci_attach_cd(r->a, 0, &cd);
	if (EFI_ERROR(ahci_test_connect(r->a)))
		return false;
	r->bio = ahci_test_block_io(r->a, 0);
	return r->bio != NULL;
}

static bool rig_up(struct rig *r, UINT32 blocks, const struct fake_ahci_cd *extra)
{
	return rig_up_cap(r, blocks, extra, 0);
}

static void rig_down(struct rig *r)
{
	ahci_test_expect_released(r->a);
	fake_ahci_destroy(r->a);
	free(r->disc);
	free(r->buf);
}

static EFI_STATUS read_at(struct rig *r, UINT32 media_id, EFI_LBA lba, UINTN blocks)
{
	return r->bio->ReadBlocks(r->bio, media_id, lba, blocks * BLOCK, r->buf);
}

TEST(ahci_cd_with_a_disc_reads_it)
{
	struct rig r;
	EFI_BLOCK_IO_MEDIA *m;

	ASSERT(rig_up(&r, 300, NULL));
	m = r.bio->Media;
	EXPECT(m->MediaPresent);
	EXPECT(m->RemovableMedia);
	EXPECT(m->ReadOnly);
	EXPECT_EQ(m->BlockSize, BLOCK);
	EXPECT_EQ(m->LastBlock, 299);
	EXPECT_EQ(m->IoAlign, 2);
	EXPECT_EQ(m->LogicalBlocksPerPhysicalBlock, 1);
	EXPECT(!r.p->cd.attention); /* the power-on unit attention was taken */
	EXPECT_STATUS(read_at(&r, m->MediaId, 3, 1), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(r.buf, BLOCK, 3 * BLOCK, 0));
	EXPECT_EQ(r.p->last_cdb_op, 0x28);
	EXPECT_STATUS(read_at(&r, m->MediaId, 299 - 63, 64), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(r.buf, 64 * BLOCK, (299 - 63) * BLOCK, 0));
	EXPECT_STATUS(r.bio->WriteBlocks(r.bio, m->MediaId, 0, BLOCK, r.buf), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(r.bio->FlushBlocks(r.bio), EFI_SUCCESS);
	rig_down(&r);
}

TEST(ahci_cd_reads_more_than_one_command_carries)
{
	const UINT32 blocks = 20000; /* 16384 blocks (32 MiB) per READ(10) */
	struct rig r;
	UINT8 *big = malloc((UINT64)blocks * BLOCK);

	ASSERT(rig_up(&r, blocks, NULL));
	EXPECT_STATUS(
	    r.bio->ReadBlocks(r.bio, r.bio->Media->MediaId, 0, (UINT64)(blocks - 1) * BLOCK, big),
	    EFI_SUCCESS);
	EXPECT(ahci_test_image_at(big, (UINT64)(blocks - 1) * BLOCK, 0, 0));
	EXPECT_EQ(r.p->reads, 2);
	EXPECT_EQ(r.p->max_prdt, 8);
	EXPECT_EQ(r.p->last_lba, 16384);
	free(big);
	rig_down(&r);
}

TEST(ahci_cd_disc_arrives)
{
	struct rig r;
	UINT32 old_id;
	UINT8 *disc = ahci_test_image(100 * BLOCK, 5);

	ASSERT(rig_up(&r, 0, NULL));
	EXPECT(!r.bio->Media->MediaPresent);
	EXPECT_EQ(r.bio->Media->BlockSize, BLOCK);
	EXPECT_EQ(r.bio->Media->LastBlock, 0);
	old_id = r.bio->Media->MediaId;
	EXPECT_STATUS(read_at(&r, old_id, 0, 1), EFI_NO_MEDIA);
	fake_ahci_cd_insert(r.p, disc, 100);
	EXPECT_STATUS(read_at(&r, old_id, 0, 1), EFI_MEDIA_CHANGED);
	EXPECT(r.bio->Media->MediaPresent);
	EXPECT(r.bio->Media->MediaId != old_id);
	EXPECT_EQ(r.bio->Media->LastBlock, 99);
	EXPECT_STATUS(read_at(&r, r.bio->Media->MediaId, 10, 2), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(r.buf, 2 * BLOCK, 10 * BLOCK, 5));
	rig_down(&r);
	free(disc);
}

TEST(ahci_cd_disc_swapped_gives_media_changed)
{
	struct rig r;
	UINT32 old_id;
	UINT8 *other = ahci_test_image(200 * BLOCK, 9);

	ASSERT(rig_up(&r, 100, NULL));
	old_id = r.bio->Media->MediaId;
	EXPECT_STATUS(read_at(&r, old_id, 0, 1), EFI_SUCCESS);
	fake_ahci_cd_insert(r.p, other, 200);
	EXPECT_STATUS(read_at(&r, old_id, 0, 1), EFI_MEDIA_CHANGED);
	EXPECT(r.bio->Media->MediaId != old_id);
	EXPECT_EQ(r.bio->Media->LastBlock, 199);
	EXPECT_STATUS(read_at(&r, old_id, 0, 1), EFI_MEDIA_CHANGED);
	EXPECT_STATUS(read_at(&r, r.bio->Media->MediaId, 150, 1), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(r.buf, BLOCK, 150 * BLOCK, 9));
	rig_down(&r);
	free(other);
}

TEST(ahci_cd_disc_removed_gives_no_media)
{
	struct rig r;
	UINT32 old_id;

	ASSERT(rig_up(&r, 100, NULL));
	old_id = r.bio->Media->MediaId;
	fake_ahci_cd_eject(r.p);
	EXPECT_STATUS(read_at(&r, old_id, 0, 1), EFI_NO_MEDIA);
	EXPECT(!r.bio->Media->MediaPresent);
	EXPECT(r.bio->Media->MediaId != old_id);
	EXPECT_STATUS(r.bio->FlushBlocks(r.bio), EFI_NO_MEDIA);
	rig_down(&r);
}

/* Reset looks at the drive again: a disc gone meanwhile shows at once. */
TEST(ahci_cd_reset_refreshes_the_media)
{
	struct rig r;
	UINT32 old_id;

	ASSERT(rig_up(&r, 100, NULL));
	old_id = r.bio->Media->MediaId;
	fake_ahci_cd_eject(r.p);
	EXPECT_STATUS(r.bio->Reset(r.bio, FALSE), EFI_SUCCESS);
	EXPECT(!r.bio->Media->MediaPresent);
	EXPECT(r.bio->Media->MediaId != old_id);
	rig_down(&r);
}

/* A drive still spinning up (NOT READY, becoming ready) is given time. */
TEST(ahci_cd_drive_becoming_ready_is_waited_for)
{
	struct fake_ahci_cd cd = {.becoming_ready = 2};
	struct rig r;

	ASSERT(rig_up(&r, 100, &cd));
	EXPECT(r.bio->Media->MediaPresent);
	EXPECT_EQ(r.p->cd.becoming_ready, 0);
	rig_down(&r);
}

/* READ CAPACITY giving a block length that is not a data block's (an audio disc). */
TEST(ahci_cd_disc_of_unusable_blocks_is_no_media)
{
	struct fake_ahci_cd cd = {.reported_block_size = 2352};
	struct rig r;

	ASSERT(rig_up(&r, 100, &cd));
	EXPECT(!r.bio->Media->MediaPresent);
	EXPECT_STATUS(read_at(&r, r.bio->Media->MediaId, 0, 1), EFI_NO_MEDIA);
	rig_down(&r);
}

/* A READ(10) that fails with a sense the driver understands as an error. */
TEST(ahci_cd_read_error_is_a_device_error)
{
	struct rig r;

	ASSERT(rig_up(&r, 100, NULL));
	r.p->fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_ERROR, 0xa0, true, 0x28, 1};
	EXPECT_STATUS(read_at(&r, r.bio->Media->MediaId, 0, 1), EFI_DEVICE_ERROR);
	EXPECT_EQ(r.p->last_cdb_op, 0x03); /* REQUEST SENSE asked why */
	EXPECT(r.bio->Media->MediaPresent);
	/* The disc shrank without telling: the drive refuses the range (ILLEGAL REQUEST). */
	r.p->cd.blocks = 50;
	EXPECT_STATUS(read_at(&r, r.bio->Media->MediaId, 60, 1), EFI_DEVICE_ERROR);
	EXPECT_STATUS(read_at(&r, r.bio->Media->MediaId, 10, 1), EFI_SUCCESS);
	rig_down(&r);
}

/* Failures REQUEST SENSE cannot explain stay device errors: the sense command fails, the
 * sense is in descriptor format, or there is no sense at all (a bus error). */
TEST(ahci_cd_failure_without_usable_sense_is_a_device_error)
{
	struct rig r;
	UINT32 id;

	ASSERT(rig_up(&r, 100, NULL));
	id = r.bio->Media->MediaId;
	r.p->cd.blocks = 50;
	r.p->fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_ERROR, 0xa0, true, 0x03, 1};
	EXPECT_STATUS(read_at(&r, id, 60, 1), EFI_DEVICE_ERROR);
	r.p->cd.descriptor_sense = true;
	EXPECT_STATUS(read_at(&r, id, 60, 1), EFI_DEVICE_ERROR);
	r.p->cd.descriptor_sense = false;
	r.p->fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_HOST_BUS, 0xa0, true, 0x28, 1};
	EXPECT_STATUS(read_at(&r, id, 0, 1), EFI_DEVICE_ERROR);
	EXPECT(r.bio->Media->MediaPresent);
	EXPECT_EQ(r.bio->Media->MediaId, id);
	EXPECT_STATUS(read_at(&r, id, 0, 1), EFI_SUCCESS);
	rig_down(&r);
}

/* A mapping shorter than a block leaves nothing to transfer. */
TEST(ahci_cd_read_without_a_usable_mapping_runs_out_of_resources)
{
	struct rig r;

	ASSERT(rig_up(&r, 100, NULL));
	r.a->pci->faults.map_limit = 1024;
	EXPECT_STATUS(read_at(&r, r.bio->Media->MediaId, 0, 1), EFI_OUT_OF_RESOURCES);
	r.a->pci->faults.map_limit = 0;
	rig_down(&r);
}

/* Reset of a drive whose port cannot be brought back (its command list does not stop) is
 * EFI_DEVICE_ERROR (UEFI 2.10, 13.9); the driver used to report success. A drive wedged
 * busy is freed by a COMRESET and then reports the power-on unit attention, which Reset
 * takes: the disc is still there, under the same MediaId. */
TEST(ahci_cd_reset_reports_whether_the_drive_came_back)
{
	struct rig r;
	UINT32 id;

	ASSERT(rig_up_cap(&r, 100, NULL, 1u << 24)); /* no command list override */
	id = r.bio->Media->MediaId;
	fake_ahci_wedge(r.p);
	EXPECT_STATUS(r.bio->Reset(r.bio, FALSE), EFI_SUCCESS);
	EXPECT(r.bio->Media->MediaPresent);
	EXPECT_EQ(r.bio->Media->MediaId, id);
	EXPECT_STATUS(read_at(&r, id, 7, 1), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(r.buf, BLOCK, 7 * BLOCK, 0));
	r.p->engine_stuck = true;
	EXPECT_STATUS(r.bio->Reset(r.bio, FALSE), EFI_DEVICE_ERROR);
	r.p->engine_stuck = false; /* so that the release check can see the port idle */
	ahci_test_expect_no_errors(r.a);
	rig_down(&r);
}
