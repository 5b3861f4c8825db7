/* The variable store on a CFI "Intel" command-set flash, 1 byte wide (QEMU's VARS pflash
 * on x86-64 and AArch64: QEMU.md section 1), as a struct flash_device for varstore/.
 * Reads are memory reads; programming is the 0x10 command byte by byte (or 0xE8, buffered);
 * erasing is 0x20 / 0xD0 on a block. QEMU's flash writes the byte as given rather than
 * ANDing it into the cell, so each byte is programmed as (old & new), which is what a NOR
 * cell would hold. When the region is ROM (x86-64's -bios) the variables live in RAM,
 * seeded from it. */
#define LOG_PREFIX "cfi flash: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/cfi_flash.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <ember/core/varstore.h>

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
	bool device_memory;   /* aligned loads only */
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

typedef UINT64 __attribute__((aligned(1), may_alias)) unaligned_u64;

/* On device memory (AArch64's map of the flash) an unaligned load faults, and mem_copy's
 * word loads would be unaligned for an odd offset: aligned loads only there. Elsewhere
 * mem_copy, which takes fewer instructions (the store is read whole at every start). */
static void copy_from_flash(volatile const UINT8 *from, void *buffer, UINT32 size,
			    bool device_memory)
{
	UINT8 *to = buffer;

	if (!device_memory) {
		mem_copy(buffer, (const void *)from, size);
		return;
	}
	for (; size && (uintptr_t)from % 8; size--)
		*to++ = *from++;
	for (; size >= 8; size -= 8, from += 8, to += 8)
		*(unaligned_u64 *)to = *(volatile const UINT64 *)from;
	while (size--)
		*to++ = *from++;
}

static EFI_STATUS pflash_read(struct flash_device *dev, UINT32 offset, void *buffer, UINT32 size)
{
	if (offset > dev->size || size > dev->size - offset)
		return EFI_INVALID_PARAMETER;
	copy_from_flash(to_pflash(dev)->base + offset, buffer, size, to_pflash(dev)->device_memory);
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
 * x86-64's -bios) ignores the write. The query's byte addresses are spread by the bank's
 * width: 1 on x86-64's flash, 4 on AArch64 virt's (two 16-bit chips side by side). */
static bool is_flash(volatile UINT8 *base, UINT32 *buffer_size)
{
	static const UINT8 strides[] = {1, 2, 4};
	bool found = false;
	UINT8 log2 = 0;

	base[0] = CMD_CFI_QUERY;
	for (size_t i = 0; i < ARRAY_SIZE(strides) && !found; i++) {
		UINT32 s = strides[i];

		found = base[CFI_QUERY_OFFSET * s] == 'Q' &&
			base[(CFI_QUERY_OFFSET + 1) * s] == 'R' &&
			base[(CFI_QUERY_OFFSET + 2) * s] == 'Y';
		if (found)
			log2 = base[CFI_WRITE_BUFFER_LOG2 * s];
	}
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

/* What the store lost or skipped goes to the platform's early output as well as the log:
 * the log may be a debug console, where users do not look, and no console exists yet. */
static void announce_losses(void (*write)(const char *s, size_t n))
{
	const struct vstore_report *r = variables_mount_report();
	char text[400], line[432];

	if (!write || !r || !vstore_report_text(r, text, sizeof(text)))
		return;
	write(line,
	      MIN(format_sn(line, sizeof(line), "Ember: variables: %s\n", text), sizeof(line) - 1));
}

bool cfi_flash_variables_start(const struct cfi_flash_region *region,
			       void (*write)(const char *s, size_t n))
{
	volatile UINT8 *base = (volatile UINT8 *)(uintptr_t)region->address;
	void *copy;

	/* Unused devices hold NULL pointers, which ConvertPointer leaves alone. */
	event_create(EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE, TPL_NOTIFY, pflash_virtual_address_change,
		     NULL, NULL, &address_change);
	if (is_flash(base, &pflash.buffer_size)) {
		pflash.dev = (struct flash_device){VARSTORE_REGION_SIZE, region->block_size,
						   pflash_read, pflash_program, pflash_erase};
		pflash.base = base;
		pflash.device_memory = region->device_memory;
		if (!EFI_ERROR(variables_start(&pflash.dev))) {
			announce_losses(write);
			return true;
		}
		log_warn("variables: the VARS flash does not work; using RAM\n");
	}
	copy = pool_alloc_typed(EfiRuntimeServicesData, VARSTORE_REGION_SIZE);
	if (!copy)
		return false;
	copy_from_flash(base, copy, VARSTORE_REGION_SIZE, region->device_memory);
	flash_ram_init(&ram_flash, copy, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	variables_start(&ram_flash.dev);
	announce_losses(write);
	return false;
}
