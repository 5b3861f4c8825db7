/* The SCSI bus driver (drivers/scsi/scsi_bus_driver.c, scsi_io.c) over a fake channel: one
 * child per LUN REPORT LUNS names, LUN 0 alone when the target does not know the command,
 * nothing for absent targets or LUNs without a unit, the LUN a remaining device path names,
 * Scsi(target,lun) device paths, EFI_SCSI_IO_PROTOCOL, and Stop. */
#include <string.h>

#include "support/test.h"
#include "fake_scsi_pass_thru.h"
#include "scsi_test_util.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/guids.h>

#define BASE u"PciRoot(0x0)/Pci(0x3,0x0)"

static EFI_SCSI_IO_PROTOCOL *scsi_io(const CHAR16 *node)
{
	CHAR16 text[96];
	UINTN n = 0;

	for (const CHAR16 *p = BASE; *p; p++)
		text[n++] = *p;
	text[n++] = u'/';
	for (const CHAR16 *p = node; *p; p++)
		text[n++] = *p;
	text[n] = 0;
	return scsi_test_protocol(text, &efi_scsi_io_protocol_guid);
}

static struct fake_scsi_pt *channel(void)
{
	struct fake_scsi_pt *pt = fake_scsi_pt_create();

	fake_scsi_add(&pt->scsi, 0, 0, 0, 512, 64);
	fake_scsi_add(&pt->scsi, 2, 1, 0, 512, 64);
	fake_scsi_add(&pt->scsi, 2, 5, 5, 2048, 16);
	fake_scsi_add(&pt->scsi, 7, 3, 3, 512, 1); /* a processor device */
	return pt;
}

TEST(scsi_bus_makes_a_child_per_lun)
{
	struct fake_scsi_pt *pt = channel();
	UINT8 target_buf[TARGET_MAX_BYTES], *target = target_buf, type = 0xff;
	UINT64 lun = 0;
	EFI_SCSI_IO_PROTOCOL *io;

	driver_connect(pt->handle, NULL, NULL, false);
	EXPECT(scsi_io(u"Scsi(0x0,0x0)") != NULL);
	EXPECT(scsi_io(u"Scsi(0x2,0x1)") != NULL);
	EXPECT(scsi_io(u"Scsi(0x7,0x3)") != NULL);
	EXPECT(scsi_io(u"Scsi(0x2,0x0)") == NULL); /* REPORT LUNS does not name it */
	EXPECT(scsi_io(u"Scsi(0x1,0x0)") == NULL); /* no such target */
	io = scsi_io(u"Scsi(0x2,0x5)");
	ASSERT(io != NULL);
	EXPECT_STATUS(io->GetDeviceType(io, &type), EFI_SUCCESS);
	EXPECT_EQ(type, EFI_SCSI_IO_TYPE_CDROM);
	EXPECT_STATUS(io->GetDeviceLocation(io, &target, &lun), EFI_SUCCESS);
	EXPECT_EQ(target_buf[0], 2);
	EXPECT_EQ(lun, 5);
	EXPECT_EQ(io->IoAlign, 4);
	EXPECT_STATUS(io->GetDeviceType(io, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(io->GetDeviceLocation(io, NULL, &lun), EFI_INVALID_PARAMETER);
	EXPECT_EQ(pt->misaligned, 0);
	fake_scsi_pt_destroy(pt);
}

TEST(scsi_bus_falls_back_to_lun_0)
{
	struct fake_scsi_pt *pt = channel();

	pt->scsi.no_report_luns = true;
	driver_connect(pt->handle, NULL, NULL, false);
	EXPECT(scsi_io(u"Scsi(0x0,0x0)") != NULL);
	EXPECT(scsi_io(u"Scsi(0x2,0x1)") == NULL); /* only LUN 0 is asked */
	EXPECT(scsi_io(u"Scsi(0x2,0x0)") == NULL); /* and there is no unit there */
	fake_scsi_pt_destroy(pt);
	/* The same for a target that answers with an empty list. */
	pt = channel();
	pt->scsi.empty_report_luns = true;
	driver_connect(pt->handle, NULL, NULL, false);
	EXPECT(scsi_io(u"Scsi(0x0,0x0)") != NULL);
	EXPECT(scsi_io(u"Scsi(0x2,0x1)") == NULL);
	fake_scsi_pt_destroy(pt);
}

TEST(scsi_bus_connects_the_remaining_path)
{
	struct fake_scsi_pt *pt = channel();
	EFI_DEVICE_PATH_PROTOCOL *node = dp_from_text(u"Scsi(0x2,0x1)");

	driver_connect(pt->handle, NULL, node, false);
	EXPECT(scsi_io(u"Scsi(0x2,0x1)") != NULL);
	EXPECT(scsi_io(u"Scsi(0x0,0x0)") == NULL);
	pool_free(node);
	fake_scsi_pt_destroy(pt);
}

TEST(scsi_bus_scsi_io_commands_and_stop)
{
	struct fake_scsi_pt *pt = channel();
	EFI_SCSI_IO_SCSI_REQUEST_PACKET p = {0};
	UINT8 cdb[6] = {0x12, 0, 0, 0, 36, 0}, data[36] __attribute__((aligned(8)));
	EFI_SCSI_IO_PROTOCOL *io;
	EFI_EVENT event;

	driver_connect(pt->handle, NULL, NULL, false);
	io = scsi_io(u"Scsi(0x0,0x0)");
	ASSERT(io != NULL);
	p.Cdb = cdb;
	p.CdbLength = 6;
	p.InDataBuffer = data;
	p.InTransferLength = sizeof(data);
	p.Timeout = 10000000;
	EXPECT_STATUS(io->ExecuteScsiCommand(io, &p, NULL), EFI_SUCCESS);
	EXPECT_EQ(p.InTransferLength, 36);
	EXPECT(memcmp(data + 8, "EMBER", 5) == 0);
	EXPECT_STATUS(io->ExecuteScsiCommand(io, NULL, NULL), EFI_INVALID_PARAMETER);
	/* Blocking: an event given is signalled when the command is done. */
	ASSERT_STATUS(event_create(0, TPL_CALLBACK, NULL, NULL, NULL, &event), EFI_SUCCESS);
	p.InTransferLength = sizeof(data);
	EXPECT_STATUS(io->ExecuteScsiCommand(io, &p, event), EFI_SUCCESS);
	EXPECT_STATUS(event_check(event), EFI_SUCCESS);
	event_close(event);
	EXPECT_STATUS(io->ResetBus(io), EFI_SUCCESS);
	EXPECT_STATUS(io->ResetDevice(io), EFI_SUCCESS);
	EXPECT_EQ(pt->channel_resets, 1);
	EXPECT_EQ(pt->lun_resets, 1);
	EXPECT_STATUS(driver_disconnect(pt->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT(scsi_io(u"Scsi(0x0,0x0)") == NULL);
	EXPECT(scsi_io(u"Scsi(0x2,0x1)") == NULL);
	fake_scsi_pt_destroy(pt);
}
