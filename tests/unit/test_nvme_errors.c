/* The NVMe driver when the controller fails: commands completing with an error status, never
 * completing (the timeout, then a controller reset before the next command), completing
 * under another command ID; a controller that never becomes ready or reports a fatal
 * status; Identify data that cannot be used. Start undoes everything when it fails. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_nvme.h"
#include <ember/core/core.h>

#define SC_WRITE_FAULT ((2u << 8) | 0x80) /* media error: write fault */

static EFI_BLOCK_IO_PROTOCOL *started(struct fake_nvme *n)
{
	EFI_BLOCK_IO_PROTOCOL *bio;

	nvme_test_ns(n, 1, 64, 9);
	if (EFI_ERROR(nvme_test_connect(n)))
		return NULL;
	bio = nvme_test_block_io(n, 1);
	return bio;
}

TEST(nvme_error_completion_fails_the_request_only)
{
	struct fake_nvme *n = nvme_test_ctrl();
	EFI_BLOCK_IO_PROTOCOL *bio = started(n);
	UINT8 buf[512];

	ASSERT(bio != NULL);
	n->fault = (struct fake_nvme_fault){FAKE_NVME_FAULT_STATUS, 1, 0x01, SC_WRITE_FAULT, 1};
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 3, sizeof(buf), buf),
		      EFI_DEVICE_ERROR);
	/* An error status is an answer: no reset, the next request goes through. */
	EXPECT_STATUS(bio->WriteBlocks(bio, bio->Media->MediaId, 3, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT_EQ(n->enables, 1);
	nvme_test_done(n);
}

TEST(nvme_command_that_never_completes_times_out_and_the_controller_is_reset)
{
	struct fake_nvme *n = nvme_test_ctrl();
	EFI_BLOCK_IO_PROTOCOL *bio = started(n);
	UINT8 buf[512];
	UINT64 before;

	ASSERT(bio != NULL);
	n->fault = (struct fake_nvme_fault){FAKE_NVME_FAULT_HANG, 1, 0x02, 0, 1};
	before = test_now_ns();
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, sizeof(buf), buf),
		      EFI_DEVICE_ERROR);
	/* The I/O timeout (30 s), not much more. */
	EXPECT(test_now_ns() - before >= 30000000000ull);
	EXPECT(test_now_ns() - before < 35000000000ull);
	/* Reset at once: the lost read must not land in the caller's buffer later. */
	EXPECT_EQ(n->cc & 1, 0);
	EXPECT_EQ(n->enables, 1);
	/* The next command finds the controller reset and its I/O queues made again. */
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT(nvme_test_image_at(buf, sizeof(buf), 3 * 512, 1));
	EXPECT_EQ(n->enables, 2);
	EXPECT(n->sq[1].exists && n->cq[1].exists);
	nvme_test_done(n);
}

TEST(nvme_completion_of_another_command_is_refused)
{
	struct fake_nvme *n = nvme_test_ctrl();
	EFI_BLOCK_IO_PROTOCOL *bio = started(n);
	UINT8 buf[512];

	ASSERT(bio != NULL);
	n->fault = (struct fake_nvme_fault){FAKE_NVME_FAULT_WRONG_CID, 1, 0x02, 0, 1};
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, sizeof(buf), buf),
		      EFI_DEVICE_ERROR);
	EXPECT_EQ(n->cc & 1, 0);
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, sizeof(buf), buf), EFI_SUCCESS);
	EXPECT_EQ(n->enables, 2);
	nvme_test_done(n);
}

TEST(nvme_reset_brings_back_a_controller_that_lost_a_command)
{
	struct fake_nvme *n = nvme_test_ctrl();
	EFI_BLOCK_IO_PROTOCOL *bio = started(n);
	UINT8 buf[512];

	ASSERT(bio != NULL);
	n->fault = (struct fake_nvme_fault){FAKE_NVME_FAULT_HANG, 1, 0x02, 0, 1};
	EXPECT_STATUS(bio->ReadBlocks(bio, bio->Media->MediaId, 3, sizeof(buf), buf),
		      EFI_DEVICE_ERROR);
	EXPECT_STATUS(bio->Reset(bio, FALSE), EFI_SUCCESS);
	EXPECT_EQ(n->enables, 2);
	EXPECT_STATUS(bio->Reset(bio, TRUE), EFI_SUCCESS);
	EXPECT_EQ(n->enables, 2);
	nvme_test_done(n);
}

/* ConnectController reports EFI_NOT_FOUND when no driver started. */
static void expect_start_fails_cleanly(struct fake_nvme *n)
{
	EXPECT_STATUS(nvme_test_connect(n), EFI_NOT_FOUND);
	EXPECT(fake_pci_io_unclaimed(n->pci));
	EXPECT(nvme_test_pass_thru(n) == NULL);
	EXPECT_EQ(n->pci->live_buffers, 0);
	EXPECT_EQ(n->pci->live_maps, 0);
	EXPECT_EQ(n->pci->attributes, 0);
	EXPECT_EQ(n->cc & 1, 0);
}

TEST(nvme_controller_that_never_becomes_ready_is_given_up_after_cap_to)
{
	struct fake_nvme *n = nvme_test_ctrl();
	UINT64 before = test_now_ns();

	nvme_test_ns(n, 1, 64, 9);
	n->ready_ns = UINT64_MAX;
	n->cap = (n->cap & ~(0xffull << 24)) | 4ull << 24; /* 2 s */
	expect_start_fails_cleanly(n);
	EXPECT(test_now_ns() - before >= 2000000000ull);
	EXPECT(test_now_ns() - before < 3000000000ull);
	nvme_test_done(n);
}

TEST(nvme_slow_controller_is_waited_for)
{
	struct fake_nvme *n = nvme_test_ctrl();

	nvme_test_ns(n, 1, 64, 9);
	n->ready_ns = 1500000000ull;
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	EXPECT(nvme_test_child(n, 1) != NULL);
	nvme_test_done(n);
}

TEST(nvme_identify_failure_undoes_start)
{
	struct fake_nvme *n = nvme_test_ctrl();

	nvme_test_ns(n, 1, 64, 9);
	n->fault = (struct fake_nvme_fault){FAKE_NVME_FAULT_STATUS, 0, 0x06, 0x06, 0};
	expect_start_fails_cleanly(n);
	EXPECT_EQ(n->shutdowns, 1);
	nvme_test_done(n);
}

TEST(nvme_identify_that_never_completes_undoes_start)
{
	struct fake_nvme *n = nvme_test_ctrl();

	nvme_test_ns(n, 1, 64, 9);
	n->fault = (struct fake_nvme_fault){FAKE_NVME_FAULT_HANG, 0, 0x06, 0, 0};
	expect_start_fails_cleanly(n);
	nvme_test_done(n);
}

TEST(nvme_controller_needing_other_queue_entries_is_refused)
{
	struct fake_nvme *n = nvme_test_ctrl();

	n->identify[512] = 0x77; /* 128-byte submission entries only */
	expect_start_fails_cleanly(n);
	nvme_test_done(n);
}

TEST(nvme_controller_without_4k_pages_or_nvm_commands_is_refused)
{
	struct fake_nvme *n = nvme_test_ctrl();
	UINT64 cap = n->cap;

	n->cap = cap | 1ull << 48; /* MPSMIN 8 KiB */
	expect_start_fails_cleanly(n);
	n->cap = cap & ~(1ull << 37); /* no NVM command set */
	expect_start_fails_cleanly(n);
	EXPECT_EQ(n->enables, 0);
	nvme_test_done(n);
}

TEST(nvme_fatal_status_while_enabling_fails_start)
{
	struct fake_nvme *n = nvme_test_ctrl();

	n->aqa = 0;
	n->fatal = true; /* CFS, as after a fatal error; a reset clears it */
	n->ready_ns = UINT64_MAX;
	n->cap = (n->cap & ~(0xffull << 24)) | 1ull << 24;
	expect_start_fails_cleanly(n);
	nvme_test_done(n);
}

TEST(nvme_bad_namespace_list_fails_start)
{
	struct fake_nvme *n = nvme_test_ctrl();

	/* IDs the list may not hold: above NN. */
	nvme_test_ns(n, 1, 64, 9);
	nvme_test_ns(n, 300, 64, 9);
	expect_start_fails_cleanly(n);
	nvme_test_done(n);
}

TEST(nvme_controller_before_1_1_uses_every_id_up_to_nn)
{
	struct fake_nvme *n = nvme_test_ctrl();

	nvme_test_ns(n, 2, 64, 9);
	n->vs = 0x10000;
	memset(n->identify + 516, 0, 4);
	n->identify[516] = 3; /* NN 3: IDs 1 to 3, of which 2 is there */
	ASSERT_STATUS(nvme_test_connect(n), EFI_SUCCESS);
	EXPECT(nvme_test_child(n, 2) != NULL);
	nvme_test_done(n);
}

TEST(nvme_class_without_a_memory_bar_0_is_left_alone)
{
	struct fake_nvme *n = nvme_test_ctrl();

	nvme_test_ns(n, 1, 64, 9);
	/* An I/O BAR 0, then none at all: the registers are not where NVMe puts them. */
	fake_pci_io_config_set(n->pci, 0x10, 4, 0xc001);
	EXPECT_STATUS(nvme_test_connect(n), EFI_NOT_FOUND);
	fake_pci_io_config_set(n->pci, 0x10, 8, 0);
	EXPECT_STATUS(nvme_test_connect(n), EFI_NOT_FOUND);
	EXPECT(fake_pci_io_unclaimed(n->pci));
	EXPECT_EQ(n->enables, 0);
	nvme_test_done(n);
}
