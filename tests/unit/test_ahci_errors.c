/* The AHCI driver's error paths on the fake HBA (fake_ahci.h): commands that fail in the
 * device or on the bus become EFI_DEVICE_ERROR and leave the port working; a command that
 * never ends times out; a wedged device is cleared by Reset (command list override, else a
 * COMRESET), and a port that could not be restarted makes Reset fail and fails its requests
 * instead of pretending to serve them. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_ahci.h"
#include <ember/core/core.h>

#define MIB (1024 * 1024ULL)
#define CAP_SCLO (1u << 24)

struct rig {
	UINT8 *image, *buf;
	struct fake_ahci *a;
	struct fake_ahci_port *p;
	EFI_BLOCK_IO_PROTOCOL *bio;
};

static bool rig_up(struct rig *r, UINT32 cap_clear)
{
	struct fake_ahci_disk disk = {.sectors = MIB / 512};

	r->image = disk.data = ahci_test_image(MIB, 0);
	r->buf = malloc(8192);
	r->a = ahci_test_hba(0x1f, 0x1);
	r->a->cap &= ~cap_clear;
	r->p = &r->a->ports[0];
	fake_ahci_attach_disk(r->a, 0, &disk);
	if (EFI_ERROR(ahci_test_connect(r->a)))
		return false;
	r->bio = ahci_test_block_io(r->a, 0);
	return r->bio != NULL;
}

static void rig_down(struct rig *r)
{
	ahci_test_expect_released(r->a);
	fake_ahci_destroy(r->a);
	free(r->image);
	free(r->buf);
}

static EFI_STATUS read_at(struct rig *r, EFI_LBA lba, UINTN bytes)
{
	return r->bio->ReadBlocks(r->bio, r->bio->Media->MediaId, lba, bytes, r->buf);
}

/* After an error the port serves requests again. */
static void expect_port_works(struct rig *r)
{
	memset(r->buf, 0, 1024);
	EXPECT_STATUS(read_at(r, 20, 1024), EFI_SUCCESS);
	EXPECT(ahci_test_image_at(r->buf, 1024, 20 * 512, 0));
}

TEST(ahci_unreadable_sector_is_a_device_error)
{
	struct rig r;

	ASSERT(rig_up(&r, 0));
	r.p->disk.bad_sector = true;
	r.p->disk.bad_lba = 100;
	EXPECT_STATUS(read_at(&r, 96, 8192), EFI_DEVICE_ERROR);
	EXPECT_EQ(r.p->errors, 1);
	expect_port_works(&r);
	EXPECT_STATUS(r.bio->WriteBlocks(r.bio, r.bio->Media->MediaId, 100, 512, r.buf),
		      EFI_DEVICE_ERROR);
	expect_port_works(&r);
	ahci_test_expect_no_errors(r.a);
	rig_down(&r);
}

/* The disk is smaller than IDENTIFY said: the device refuses (IDNF). */
TEST(ahci_sector_the_device_does_not_have_is_a_device_error)
{
	struct rig r;

	ASSERT(rig_up(&r, 0));
	r.p->disk.sectors -= 8;
	EXPECT_STATUS(read_at(&r, MIB / 512 - 4, 512), EFI_DEVICE_ERROR);
	expect_port_works(&r);
	rig_down(&r);
}

TEST(ahci_failed_flush_is_a_device_error)
{
	struct rig r;

	ASSERT(rig_up(&r, 0));
	r.p->fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_ERROR, 0xea, .times = 1};
	EXPECT_STATUS(r.bio->FlushBlocks(r.bio), EFI_DEVICE_ERROR);
	EXPECT_STATUS(r.bio->FlushBlocks(r.bio), EFI_SUCCESS);
	EXPECT_EQ(r.p->flushes, 1);
	expect_port_works(&r);
	rig_down(&r);
}

/* An HBA that could not reach memory (PxIS.HBFS) fails the command, not the port. */
TEST(ahci_host_bus_error_is_a_device_error)
{
	struct rig r;

	ASSERT(rig_up(&r, 0));
	r.p->fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_HOST_BUS, 0x25, .times = 1};
	EXPECT_STATUS(read_at(&r, 0, 512), EFI_DEVICE_ERROR);
	expect_port_works(&r);
	rig_down(&r);
}

/* ERR in the task file counts even when the HBA cleared CI without raising TFES. */
TEST(ahci_error_status_without_tfes_is_a_device_error)
{
	struct rig r;

	ASSERT(rig_up(&r, 0));
	r.p->fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_QUIET_ERROR, 0x35, .times = 1};
	EXPECT_STATUS(r.bio->WriteBlocks(r.bio, r.bio->Media->MediaId, 3, 512, r.buf),
		      EFI_DEVICE_ERROR);
	expect_port_works(&r);
	rig_down(&r);
}

/* IDENTIFY DEVICE that never completes: after the driver's 3 s the port is recovered and
 * released, with no child; the next Start finds the disk. */
TEST(ahci_identify_that_never_ends_times_out)
{
	struct rig r = {0};
	struct fake_ahci_disk disk = {.sectors = MIB / 512};
	UINT64 start;

	r.image = disk.data = ahci_test_image(MIB, 0);
	r.a = ahci_test_hba(0x1f, 0x1);
	fake_ahci_attach_disk(r.a, 0, &disk);
	r.a->ports[0].fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_HANG, 0xec, .times = 1};
	start = test_now_ns();
	EXPECT_STATUS(ahci_test_connect(r.a), EFI_SUCCESS);
	EXPECT(test_now_ns() - start >= 3000000000ULL);
	EXPECT(ahci_test_child(r.a, 0) == NULL);
	EXPECT_EQ(r.a->pci->live_buffers, 0);
	ahci_test_expect_released(r.a);
	EXPECT_STATUS(ahci_test_connect(r.a), EFI_SUCCESS);
	EXPECT(ahci_test_child(r.a, 0) != NULL);
	rig_down(&r);
}

/* A device wedged busy: Reset clears it with a command list override, and reads work. */
TEST(ahci_reset_clears_a_wedged_device)
{
	struct rig r;

	ASSERT(rig_up(&r, 0));
	fake_ahci_wedge(r.p);
	EXPECT_STATUS(r.bio->Reset(r.bio, TRUE), EFI_SUCCESS);
	EXPECT(r.p->cmd & 1); /* ST again */
	expect_port_works(&r);
	rig_down(&r);
}

/* Without command list override, a device wedged busy is cleared by a COMRESET (AHCI
 * 1.3.1, 10.4.2). The driver used to give up, leave the port stopped and report success. */
TEST(ahci_reset_without_clo_clears_a_wedged_device_with_comreset)
{
	struct rig r;
	UINTN comresets;

	ASSERT(rig_up(&r, CAP_SCLO));
	comresets = r.p->comresets;
	fake_ahci_wedge(r.p);
	EXPECT_STATUS(r.bio->Reset(r.bio, TRUE), EFI_SUCCESS);
	EXPECT_EQ(r.p->comresets, comresets + 1);
	EXPECT(r.p->cmd & 1); /* ST again */
	expect_port_works(&r);
	ahci_test_expect_no_errors(r.a);
	rig_down(&r);
}

/* A command that never ends on such an HBA: it times out, the recovery's COMRESET frees the
 * device, and the next request works. */
TEST(ahci_command_that_hangs_without_clo_is_recovered_by_comreset)
{
	struct rig r;
	UINTN comresets;

	ASSERT(rig_up(&r, CAP_SCLO));
	comresets = r.p->comresets;
	r.p->fault = (struct fake_ahci_fault){FAKE_AHCI_FAULT_HANG, 0x25, .times = 1};
	EXPECT_STATUS(read_at(&r, 0, 512), EFI_DEVICE_ERROR);
	EXPECT_EQ(r.p->comresets, comresets + 1);
	expect_port_works(&r);
	ahci_test_expect_no_errors(r.a);
	rig_down(&r);
}

/* A device that stays busy even after the COMRESET: the port cannot start again, Reset says
 * so (UEFI 2.10, 13.9: EFI_DEVICE_ERROR when the device could not be reset), and a request
 * must fail rather than "complete" at once because the HBA ignored PxCI (the driver used to
 * return EFI_SUCCESS from both, the read with the caller's buffer untouched). */
TEST(ahci_port_that_did_not_restart_fails_reset_and_requests)
{
	struct rig r;

	ASSERT(rig_up(&r, CAP_SCLO));
	r.p->ready_ns = FAKE_AHCI_NEVER;
	fake_ahci_wedge(r.p);
	EXPECT_STATUS(r.bio->Reset(r.bio, TRUE), EFI_DEVICE_ERROR);
	EXPECT(!(r.p->cmd & 1));
	memset(r.buf, 0xee, 1024);
	EXPECT_STATUS(read_at(&r, 20, 1024), EFI_DEVICE_ERROR);
	ahci_test_expect_no_errors(r.a);
	EXPECT_EQ(r.p->reads, 0);
	rig_down(&r);
}

/* The link does not come back after the COMRESET: Reset fails, within a bounded time. */
TEST(ahci_reset_whose_comreset_finds_no_link_is_a_device_error)
{
	struct rig r;
	UINTN comresets;
	UINT64 start;

	ASSERT(rig_up(&r, CAP_SCLO));
	comresets = r.p->comresets;
	r.p->link_ns = FAKE_AHCI_NEVER;
	fake_ahci_wedge(r.p);
	start = test_now_ns();
	EXPECT_STATUS(r.bio->Reset(r.bio, FALSE), EFI_DEVICE_ERROR);
	EXPECT(test_now_ns() - start < 5000000000ULL);
	EXPECT_EQ(r.p->comresets, comresets + 1);
	EXPECT_STATUS(read_at(&r, 20, 1024), EFI_DEVICE_ERROR);
	ahci_test_expect_no_errors(r.a);
	rig_down(&r);
}

/* A command list that does not stop (CR stays set) is hung: even with command list override
 * the port cannot be brought back, and Reset says so. */
TEST(ahci_reset_of_a_port_whose_engine_hangs_is_a_device_error)
{
	struct rig r;

	ASSERT(rig_up(&r, 0));
	r.p->engine_stuck = true;
	EXPECT_STATUS(r.bio->Reset(r.bio, TRUE), EFI_DEVICE_ERROR);
	EXPECT_STATUS(read_at(&r, 20, 1024), EFI_DEVICE_ERROR);
	EXPECT_EQ(r.p->reads, 0);
	r.p->engine_stuck = false; /* so that the release check can see the port idle */
	ahci_test_expect_no_errors(r.a);
	rig_down(&r);
}
