/* The task-file registers of an IDE channel through PciIo (a BAR in native mode, absolute
 * ports in compatibility mode), the channel's software reset and the signatures drives
 * leave after it (ATA8-APT, 9.2; ATA8-ACS, 4.1.1 and 9.12). */
#define LOG_PREFIX "ide: "
#include "ide.h"
#include <ember/core/core.h>
#include <ember/core/log.h>

#define RESET_PULSE_US 5     /* SRST held at least 5 us */
#define RESET_SETTLE_US 2000 /* before the status is valid */
#define RESET_TIMEOUT_MS 5000
#define FLOATING 0xff /* what reads of a channel without drives return */

/* Signatures in LBA mid/high after a reset (count and LBA low read 01h). */
#define SIG_ATA 0x0000
#define SIG_ATAPI 0xeb14
#define SIG_SATA 0xc33c
#define SIG_SATAPI 0x9669

UINT8 ide_read(struct ide_channel *ch, UINT32 reg)
{
	UINT8 v = FLOATING;

	ch->pci_io->Io.Read(ch->pci_io, EfiPciIoWidthUint8, ch->cmd_bar, ch->cmd_base + reg, 1, &v);
	return v;
}

void ide_write(struct ide_channel *ch, UINT32 reg, UINT8 value)
{
	ch->pci_io->Io.Write(ch->pci_io, EfiPciIoWidthUint8, ch->cmd_bar, ch->cmd_base + reg, 1,
			     &value);
}

void ide_control(struct ide_channel *ch, UINT8 value)
{
	ch->pci_io->Io.Write(ch->pci_io, EfiPciIoWidthUint8, ch->ctl_bar, ch->ctl_base, 1, &value);
}

static UINT8 alt_status(struct ide_channel *ch)
{
	UINT8 v = FLOATING;

	ch->pci_io->Io.Read(ch->pci_io, EfiPciIoWidthUint8, ch->ctl_bar, ch->ctl_base, 1, &v);
	return v;
}

/* Polls the alternate status until BSY clears; EFI_NOT_FOUND for a floating bus. */
static EFI_STATUS wait_ready(struct ide_channel *ch, UINT32 timeout_ms)
{
	UINT64 deadline = core_time_ns() + (UINT64)timeout_ms * 1000000;

	for (;;) {
		UINT8 st = alt_status(ch);

		if (st == FLOATING)
			return EFI_NOT_FOUND;
		if (!(st & IDE_STATUS_BSY))
			return EFI_SUCCESS;
		if (core_time_ns() > deadline)
			return EFI_TIMEOUT;
		core_stall_us(10);
	}
}

EFI_STATUS ide_channel_reset(struct ide_channel *ch)
{
	EFI_STATUS status;

	ide_control(ch, IDE_CONTROL_NIEN | IDE_CONTROL_SRST);
	core_stall_us(RESET_PULSE_US);
	ide_control(ch, IDE_CONTROL_NIEN);
	core_stall_us(RESET_SETTLE_US);
	ch->selected = 0xff;
	status = wait_ready(ch, RESET_TIMEOUT_MS);
	if (EFI_ERROR(status))
		log_debug("channel %u: reset: %r\n", ch->index, status);
	return status;
}

EFI_STATUS ide_signature(struct ide_channel *ch, UINT8 drive, bool *atapi)
{
	UINT16 sig;

	ide_write(ch, IDE_DEVICE, IDE_DEVICE_OBS | (drive ? IDE_DEVICE_SLAVE : 0));
	ch->selected = drive;
	/* Four reads of the alternate status give the drive the 400 ns it needs. */
	for (int i = 0; i < 4; i++)
		alt_status(ch);
	if (ide_read(ch, IDE_STATUS) == FLOATING)
		return EFI_NOT_FOUND;
	if (ide_read(ch, IDE_COUNT) != 1 || ide_read(ch, IDE_LBA_LOW) != 1)
		return EFI_NOT_FOUND;
	sig = (UINT16)(ide_read(ch, IDE_LBA_MID) | ide_read(ch, IDE_LBA_HIGH) << 8);
	*atapi = sig == SIG_ATAPI || sig == SIG_SATAPI;
	return *atapi || sig == SIG_ATA || sig == SIG_SATA ? EFI_SUCCESS : EFI_NOT_FOUND;
}
