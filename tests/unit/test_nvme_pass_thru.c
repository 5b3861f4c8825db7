/* EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL of the NVMe driver (UEFI 2.10, 13.15) on the fake
 * controller: PassThru's argument checks, admin and I/O commands with data, error
 * completions handed back, a buffer too long for one command; GetNextNamespace,
 * BuildDevicePath and GetNamespace; and EFI_DISK_INFO_PROTOCOL on the children. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_nvme.h"
#include <efi/protocol/disk_info.h>
#include <ember/core/core.h>
#include <ember/lib/guids.h>

struct pt_test {
	struct fake_nvme *n;
	EFI_NVM_EXPRESS_PASS_THRU_PROTOCOL *pt;
	EFI_NVM_EXPRESS_COMMAND cmd;
	EFI_NVM_EXPRESS_COMPLETION cpl;
	EFI_NVM_EXPRESS_PASS_THRU_COMMAND_PACKET packet;
	UINT8 *buffer; /* 8 KiB, page-aligned */
};

static bool setup(struct pt_test *t)
{
	memset(t, 0, sizeof(*t));
	t->n = nvme_test_ctrl();
	nvme_test_ns(t->n, 1, 64, 9);
	nvme_test_ns(t->n, 3, 64, 9);
	if (EFI_ERROR(nvme_test_connect(t->n)))
		return false;
	t->pt = nvme_test_pass_thru(t->n);
	t->buffer = aligned_alloc(4096, 8192);
	t->packet.NvmeCmd = &t->cmd;
	t->packet.NvmeCompletion = &t->cpl;
	t->packet.CommandTimeout = 10000000; /* 1 s */
	return t->pt && t->buffer;
}

static void teardown(struct pt_test *t)
{
	free(t->buffer);
	nvme_test_done(t->n);
}

static void identify_controller(struct pt_test *t)
{
	t->cmd.Cdw0.Opcode = 0x06;
	t->cmd.Flags = CDW10_VALID;
	t->cmd.Cdw10 = 1;
	t->packet.QueueType = NVME_ADMIN_QUEUE;
	t->packet.TransferBuffer = t->buffer;
	t->packet.TransferLength = 4096;
}

TEST(nvme_pass_thru_mode)
{
	struct pt_test t;

	ASSERT(setup(&t));
	EXPECT_EQ(t.pt->Mode->Attributes, EFI_NVM_EXPRESS_PASS_THRU_ATTRIBUTES_PHYSICAL |
					      EFI_NVM_EXPRESS_PASS_THRU_ATTRIBUTES_LOGICAL |
					      EFI_NVM_EXPRESS_PASS_THRU_ATTRIBUTES_CMD_SET_NVM);
	EXPECT_EQ(t.pt->Mode->IoAlign, 4);
	EXPECT_EQ(t.pt->Mode->NvmeVersion, 0x10400);
	teardown(&t);
}

TEST(nvme_pass_thru_runs_an_admin_command)
{
	struct pt_test t;

	ASSERT(setup(&t));
	identify_controller(&t);
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_SUCCESS);
	EXPECT(memcmp(t.buffer, t.n->identify, 4096) == 0);
	EXPECT_EQ(t.cpl.DW3 >> 17, 0); /* status */
	EXPECT_EQ(t.cpl.DW2 >> 16, 0); /* the admin queue */
	EXPECT_EQ(t.packet.TransferLength, 4096);
	teardown(&t);
}

TEST(nvme_pass_thru_runs_io_commands)
{
	struct pt_test t;

	ASSERT(setup(&t));
	t.cmd.Cdw0.Opcode = 0x02; /* Read 8 blocks from 4, a PRP list page */
	t.cmd.Flags = CDW10_VALID | CDW11_VALID | CDW12_VALID;
	t.cmd.Cdw10 = 4;
	t.cmd.Cdw12 = 7;
	t.cmd.Cdw11 = 0;
	t.packet.QueueType = NVME_IO_QUEUE;
	t.packet.TransferBuffer = t.buffer + 1024;
	t.packet.TransferLength = 4096;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 3, &t.packet, NULL), EFI_SUCCESS);
	EXPECT(nvme_test_image_at(t.buffer + 1024, 4096, 4 * 512, 3));
	EXPECT_EQ(t.cpl.DW2 >> 16, 1);
	/* A Flush of every namespace (NSID all ones). */
	memset(&t.cmd, 0, sizeof(t.cmd));
	t.packet.TransferBuffer = NULL;
	t.packet.TransferLength = 0;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0xffffffff, &t.packet, NULL), EFI_SUCCESS);
	EXPECT_EQ(t.n->ns[0].flushes, 1);
	teardown(&t);
}

TEST(nvme_pass_thru_flags_choose_the_dwords_sent)
{
	struct pt_test t;

	ASSERT(setup(&t));
	identify_controller(&t);
	t.cmd.Cdw10 = 0x55; /* not valid: CNS 0 goes out, Identify Namespace of NSID 1 */
	t.cmd.Flags = 0;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 1, &t.packet, NULL), EFI_SUCCESS);
	EXPECT(memcmp(t.buffer, t.n->ns[0].identify, 4096) == 0);
	teardown(&t);
}

TEST(nvme_pass_thru_hands_back_an_error_completion)
{
	struct pt_test t;

	ASSERT(setup(&t));
	t.cmd.Cdw0.Opcode = 0xc1; /* vendor specific, unknown to the controller */
	t.packet.QueueType = NVME_ADMIN_QUEUE;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_DEVICE_ERROR);
	EXPECT_EQ((t.cpl.DW3 >> 17) & 0xff, 0x01); /* Invalid Command Opcode */
	teardown(&t);
}

TEST(nvme_pass_thru_checks_its_arguments)
{
	struct pt_test t;

	ASSERT(setup(&t));
	identify_controller(&t);
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, NULL, NULL), EFI_INVALID_PARAMETER);
	t.packet.NvmeCompletion = NULL;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_INVALID_PARAMETER);
	t.packet.NvmeCompletion = &t.cpl;
	t.packet.QueueType = 2;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_INVALID_PARAMETER);
	t.packet.QueueType = NVME_ADMIN_QUEUE;
	t.packet.TransferBuffer = t.buffer + 2; /* IoAlign 4 */
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_INVALID_PARAMETER);
	t.packet.TransferBuffer = NULL;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_INVALID_PARAMETER);
	t.packet.TransferBuffer = t.buffer;
	/* I/O commands go to an active namespace or all; admin ones up to NN. */
	t.packet.QueueType = NVME_IO_QUEUE;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 2, &t.packet, NULL), EFI_INVALID_PARAMETER);
	t.packet.QueueType = NVME_ADMIN_QUEUE;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 257, &t.packet, NULL), EFI_INVALID_PARAMETER);
	t.packet.MetadataLength = 16;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_UNSUPPORTED);
	t.packet.MetadataLength = 0;
	t.cmd.Cdw0.FusedOperation = FUSED_FIRST_CMD;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_UNSUPPORTED);
	t.cmd.Cdw0.FusedOperation = NORMAL_CMD;
	/* The driver's queues are its own. */
	t.cmd.Cdw0.Opcode = 0x04;
	t.packet.TransferLength = 0;
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_UNSUPPORTED);
	EXPECT(t.n->cq[1].exists);
	/* Bring-up (4) and two Identify Namespace: none of the commands above. */
	EXPECT_EQ(t.n->commands, 6);
	teardown(&t);
}

TEST(nvme_pass_thru_refuses_a_transfer_longer_than_mdts)
{
	struct pt_test t;

	ASSERT(setup(&t));
	identify_controller(&t);
	t.packet.TransferLength = 1024 * 1024; /* MDTS 7: 512 KiB */
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_BAD_BUFFER_SIZE);
	EXPECT_EQ(t.packet.TransferLength, 512 * 1024);
	teardown(&t);
}

TEST(nvme_pass_thru_command_that_never_completes_times_out)
{
	struct pt_test t;
	UINT64 before;

	ASSERT(setup(&t));
	identify_controller(&t);
	t.n->fault = (struct fake_nvme_fault){FAKE_NVME_FAULT_HANG, 0, 0x06, 0, 1};
	before = test_now_ns();
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_TIMEOUT);
	EXPECT(test_now_ns() - before >= 1000000000ull);
	EXPECT(test_now_ns() - before < 1200000000ull);
	EXPECT_STATUS(t.pt->PassThru(t.pt, 0, &t.packet, NULL), EFI_SUCCESS);
	teardown(&t);
}

TEST(nvme_pass_thru_walks_the_namespaces)
{
	struct pt_test t;
	UINT32 nsid = 0xffffffff;

	ASSERT(setup(&t));
	EXPECT_STATUS(t.pt->GetNextNamespace(t.pt, &nsid), EFI_SUCCESS);
	EXPECT_EQ(nsid, 1);
	EXPECT_STATUS(t.pt->GetNextNamespace(t.pt, &nsid), EFI_SUCCESS);
	EXPECT_EQ(nsid, 3);
	EXPECT_STATUS(t.pt->GetNextNamespace(t.pt, &nsid), EFI_NOT_FOUND);
	nsid = 2;
	EXPECT_STATUS(t.pt->GetNextNamespace(t.pt, &nsid), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(t.pt->GetNextNamespace(t.pt, NULL), EFI_INVALID_PARAMETER);
	teardown(&t);
}

TEST(nvme_pass_thru_builds_and_reads_device_paths)
{
	struct pt_test t;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	NVME_NAMESPACE_DEVICE_PATH node;
	UINT32 nsid = 0;

	ASSERT(setup(&t));
	EXPECT_STATUS(t.pt->BuildDevicePath(t.pt, 3, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(t.pt->BuildDevicePath(t.pt, 2, &path), EFI_NOT_FOUND);
	ASSERT_STATUS(t.pt->BuildDevicePath(t.pt, 3, &path), EFI_SUCCESS);
	memcpy(&node, path, sizeof(node));
	EXPECT_EQ(node.Header.Type, MESSAGING_DEVICE_PATH);
	EXPECT_EQ(node.Header.SubType, MSG_NVME_NAMESPACE_DP);
	EXPECT_EQ(node.Header.Length[0], sizeof(node));
	EXPECT_EQ(node.NamespaceId, 3);
	EXPECT(memcmp(&node.NamespaceUuid, t.n->ns[1].eui64, 8) == 0);
	EXPECT_STATUS(t.pt->GetNamespace(t.pt, path, &nsid), EFI_SUCCESS);
	EXPECT_EQ(nsid, 3);
	EXPECT_STATUS(t.pt->GetNamespace(t.pt, path, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(t.pt->GetNamespace(t.pt, NULL, &nsid), EFI_INVALID_PARAMETER);
	/* Another EUI-64, another namespace ID, another kind of node. */
	node.NamespaceUuid ^= 1;
	EXPECT_STATUS(t.pt->GetNamespace(t.pt, &node.Header, &nsid), EFI_NOT_FOUND);
	node.NamespaceUuid ^= 1;
	node.NamespaceId = 2;
	EXPECT_STATUS(t.pt->GetNamespace(t.pt, &node.Header, &nsid), EFI_NOT_FOUND);
	node.Header.SubType = MSG_SATA_DP;
	EXPECT_STATUS(t.pt->GetNamespace(t.pt, &node.Header, &nsid), EFI_UNSUPPORTED);
	pool_free(path);
	teardown(&t);
}

TEST(nvme_disk_info_gives_identify_namespace_data)
{
	struct pt_test t;
	EFI_DISK_INFO_PROTOCOL *info = NULL;
	UINT32 size = 16, count = 0, a, b;

	ASSERT(setup(&t));
	ASSERT_STATUS(
	    protocol_get(nvme_test_child(t.n, 3), &efi_disk_info_protocol_guid, (void **)&info),
	    EFI_SUCCESS);
	EXPECT_STATUS(info->Identify(info, t.buffer, &size), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(size, 4096);
	EXPECT_STATUS(info->Identify(info, t.buffer, &size), EFI_SUCCESS);
	EXPECT(memcmp(t.buffer, t.n->ns[1].identify, 4096) == 0);
	EXPECT_STATUS(info->Identify(info, t.buffer, NULL), EFI_INVALID_PARAMETER);
	size = 4096;
	EXPECT_STATUS(info->Inquiry(info, t.buffer, &size), EFI_NOT_FOUND);
	EXPECT_STATUS(info->SenseData(info, t.buffer, &size, (UINT8 *)&count), EFI_NOT_FOUND);
	EXPECT_STATUS(info->WhichIde(info, &a, &b), EFI_UNSUPPORTED);
	teardown(&t);
}
