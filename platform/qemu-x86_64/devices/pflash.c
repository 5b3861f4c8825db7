/* The variable store on QEMU's VARS pflash (a CFI "Intel" command-set flash, 1 byte wide,
 * 4 KiB erase blocks: QEMU.md section 1), as a struct flash_device for varstore/.
 * Reads are memory reads; programming is the 0x10 command byte by byte; erasing is 0x20 /
 * 0xD0 on a block. QEMU's flash writes the byte as given rather than ANDing it into the
 * cell, so each byte is programmed as (old & new), which is what a NOR cell would hold.
 * With -bios the region is ROM: the variables then live in RAM, seeded from it. */
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <ember/core/varstore.h>
#include "qemu.h"
#include "reset/layout.h"

_Static_assert(FW_VARS_SIZE == VARSTORE_REGION_SIZE, "the VARS region is the store's region");

#define CMD_READ_ARRAY 0xff
#define CMD_READ_STATUS 0x70
#define CMD_CLEAR_STATUS 0x50
#define CMD_PROGRAM 0x10
#define CMD_ERASE_SETUP 0x20
#define CMD_ERASE_CONFIRM 0xd0
#define CMD_CFI_QUERY 0x98
#define CMD_WRITE_BUFFER 0xe8
#define CMD_CONFIRM 0xd0
#define CFI_WRITE_BUFFER_LOG2 0x2a /* max bytes in a buffered program: 2^n */
#define STATUS_READY 0x80
#define STATUS_ERASE_ERROR 0x20
#define STATUS_PROGRAM_ERROR 0x10
#define CFI_QUERY_OFFSET 0x10 /* "QRY" in byte mode */
#define POLL_LIMIT 10000000

struct pflash {
	struct flash_device dev;
	volatile UINT8 *base; /* converted at SetVirtualAddressMap */
	UINT32 buffer_size;   /* of the write-buffer command; 0: byte programming only */
};

static struct pflash pflash;
static struct flash_ram ram_flash;
static EFI_EVENT address_change;

static struct pflash *to_pflash(struct flash_device *dev)
{
	return container_of(dev, struct pflash, dev);
}

/* Waits for the write state machine; false on timeout or an error bit in mask. */
static bool wait_ready(volatile UINT8 *at, UINT8 error_mask)
{
	UINT8 status = 0;

	*at = CMD_READ_STATUS;
	for (UINT32 i = 0; i < POLL_LIMIT; i++) {
		status = *at;
		if (status & STATUS_READY)
			break;
	}
	*at = CMD_CLEAR_STATUS;
	*at = CMD_READ_ARRAY;
	return (status & STATUS_READY) && !(status & error_mask);
}

static EFI_STATUS pflash_read(struct flash_device *dev, UINT32 offset, void *buffer, UINT32 size)
{
	struct pflash *f = to_pflash(dev);

	if (offset > dev->size || size > dev->size - offset)
		return EFI_INVALID_PARAMETER;
	mem_copy(buffer, (const void *)(f->base + offset), size);
	return EFI_SUCCESS;
}

/* Programs one byte with the single-byte command. */
static bool program_byte(volatile UINT8 *at, UINT8 value)
{
	*at = CMD_PROGRAM;
	*at = value;
	return wait_ready(at, STATUS_PROGRAM_ERROR);
}

/* Programs bytes (within one write buffer) with the buffered command: one command
 * sequence instead of one per byte, which matters because every switch of a QEMU flash
 * between array and command mode is costly under TCG. */
static bool program_buffer(volatile UINT8 *at, const UINT8 *values, UINT32 count)
{
	UINT8 status = 0;

	*at = CMD_WRITE_BUFFER;
	for (UINT32 i = 0; i < POLL_LIMIT && !((status = *at) & STATUS_READY); i++)
		;
	if (!(status & STATUS_READY)) {
		*at = CMD_READ_ARRAY;
		return false;
	}
	*at = (UINT8)(count - 1);
	for (UINT32 i = 0; i < count; i++)
		at[i] = values[i];
	*at = CMD_CONFIRM;
	return wait_ready(at, STATUS_PROGRAM_ERROR);
}

static EFI_STATUS pflash_program(struct flash_device *dev, UINT32 offset, const void *data,
				 UINT32 size)
{
	struct pflash *f = to_pflash(dev);
	const UINT8 *bytes = data;
	UINT8 values[256];

	if (offset > dev->size || size > dev->size - offset)
		return EFI_INVALID_PARAMETER;
	while (size) {
		volatile UINT8 *at = f->base + offset;
		UINT32 limit = f->buffer_size ? MIN(f->buffer_size, (UINT32)sizeof(values)) : 1;
		UINT32 count = MIN(size, limit - offset % limit);
		bool changes = false, ok;
		/* What a NOR cell would hold: the old bits ANDed with the new. */
		for (UINT32 i = 0; i < count; i++) {
			values[i] = at[i] & bytes[i];
			changes |= values[i] != at[i];
		}
		ok = !changes ||
		     (count == 1 ? program_byte(at, values[0]) : program_buffer(at, values, count));
		if (!ok)
			return EFI_DEVICE_ERROR;
		offset += count, bytes += count, size -= count;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS pflash_erase(struct flash_device *dev, UINT32 offset)
{
	volatile UINT8 *at = to_pflash(dev)->base + offset;

	if (offset % dev->block_size || offset >= dev->size)
		return EFI_INVALID_PARAMETER;
	*at = CMD_ERASE_SETUP;
	*at = CMD_ERASE_CONFIRM;
	return wait_ready(at, STATUS_ERASE_ERROR) ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

/* A CFI query answers "QRY" on a flash (and says how big its write buffer is); ROM (with
 * -bios) ignores the write. */
static bool is_flash(volatile UINT8 *base, UINT32 *buffer_size)
{
	bool found;
	UINT8 log2;

	base[0] = CMD_CFI_QUERY;
	found = base[CFI_QUERY_OFFSET] == 'Q' && base[CFI_QUERY_OFFSET + 1] == 'R' &&
		base[CFI_QUERY_OFFSET + 2] == 'Y';
	log2 = base[CFI_WRITE_BUFFER_LOG2];
	base[0] = CMD_READ_ARRAY;
	*buffer_size = found && log2 > 0 && log2 < 16 ? 1u << log2 : 0;
	return found;
}

/* The pointers the flash devices keep (varstore/ converts its own pointers to them). */
static VOID EFIAPI pflash_virtual_address_change(EFI_EVENT event, VOID *context)
{
	runtime_convert_pointer((void **)&pflash.base);
	runtime_convert_pointer((void **)&pflash.dev.read);
	runtime_convert_pointer((void **)&pflash.dev.program);
	runtime_convert_pointer((void **)&pflash.dev.erase);
	runtime_convert_pointer((void **)&ram_flash.bytes);
	runtime_convert_pointer((void **)&ram_flash.dev.read);
	runtime_convert_pointer((void **)&ram_flash.dev.program);
	runtime_convert_pointer((void **)&ram_flash.dev.erase);
}

/* Where the VARS region is: directly below the code, in both -bios and pflash layouts. */
UINT64 pflash_vars_base(void)
{
	return 0x100000000ULL - FW_CODE_SIZE - FW_VARS_SIZE;
}

/* What the store lost or skipped goes to the serial console as well as the log: the log
 * is QEMU's debug console, where users do not look, and no console exists yet. */
static void announce_losses(void)
{
	const struct vstore_report *r = variables_mount_report();
	char text[400], line[432];

	if (!r || !vstore_report_text(r, text, sizeof(text)))
		return;
	serial_raw_write(line, MIN(format_sn(line, sizeof(line), "Ember: variables: %s\n", text),
				   sizeof(line) - 1));
}

/* Starts the variable services on the VARS flash, or in RAM when it is not writable;
 * returns whether the variables are persistent. */
bool pflash_variables_start(void)
{
	volatile UINT8 *base = (volatile UINT8 *)(uintptr_t)pflash_vars_base();
	void *copy;

	/* Unused devices hold NULL pointers, which ConvertPointer leaves alone. */
	event_create(EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE, TPL_NOTIFY, pflash_virtual_address_change,
		     NULL, NULL, &address_change);
	if (is_flash(base, &pflash.buffer_size)) {
		pflash.dev = (struct flash_device){VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE,
						   pflash_read, pflash_program, pflash_erase};
		pflash.base = base;
		if (!EFI_ERROR(variables_start(&pflash.dev))) {
			announce_losses();
			return true;
		}
		log_warn("variables: the VARS flash does not work; using RAM\n");
	}
	copy = pool_alloc_typed(EfiRuntimeServicesData, VARSTORE_REGION_SIZE);
	if (!copy)
		return false;
	mem_copy(copy, (const void *)base, VARSTORE_REGION_SIZE);
	flash_ram_init(&ram_flash, copy, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	variables_start(&ram_flash.dev);
	announce_losses();
	return false;
}
