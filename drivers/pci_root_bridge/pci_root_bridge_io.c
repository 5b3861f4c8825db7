/* EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL accessors (UEFI 2.10, 14.2): Mem, Io and Pci reads and
 * writes with their FIFO (address fixed) and Fill (buffer fixed) variants, PollMem, PollIo
 * and CopyMem. Accesses must be naturally aligned; PCI has no 64-bit I/O cycles. I/O and
 * configuration cycles go through the platform's hooks (struct pci_root_bridge_hw). */
#include <ember/core/core.h>
#include <ember/core/platform.h>
#include <ember/lib/str.h>
#include <efi/pci.h>
#include "pci_root_bridge.h"

enum space { SPACE_MEM, SPACE_IO, SPACE_PCI };

struct access {
	const struct pci_root_bridge_hw *hw;
	enum space space;
	UINT32 bdf;	/* configuration space: the function */
	UINT64 address; /* memory or port address, or configuration register */
	UINTN size;
	bool step_address, step_buffer;
};

static UINT64 read_one(const struct access *a)
{
	uintptr_t p = (uintptr_t)a->address;
	UINT16 r = (UINT16)a->address;
	unsigned size = (unsigned)a->size;

	if (a->space == SPACE_MEM)
		return a->size == 1   ? *(volatile UINT8 *)p
		       : a->size == 2 ? *(volatile UINT16 *)p
		       : a->size == 4 ? *(volatile UINT32 *)p
				      : *(volatile UINT64 *)p;
	if (a->space == SPACE_IO)
		return a->hw->io_read(a->address, size);
	if (a->size == 8)
		return a->hw->config_read(a->bdf, r, 4) |
		       (UINT64)a->hw->config_read(a->bdf, r + 4, 4) << 32;
	return a->hw->config_read(a->bdf, r, size);
}

static void write_one(const struct access *a, UINT64 v)
{
	uintptr_t p = (uintptr_t)a->address;
	UINT16 r = (UINT16)a->address;

	if (a->space == SPACE_MEM) {
		if (a->size == 1)
			*(volatile UINT8 *)p = (UINT8)v;
		else if (a->size == 2)
			*(volatile UINT16 *)p = (UINT16)v;
		else if (a->size == 4)
			*(volatile UINT32 *)p = (UINT32)v;
		else
			*(volatile UINT64 *)p = v;
	} else if (a->space == SPACE_IO) {
		a->hw->io_write(a->address, (unsigned)a->size, (UINT32)v);
	} else if (a->size == 8) {
		a->hw->config_write(a->bdf, r, 4, (UINT32)v);
		a->hw->config_write(a->bdf, r + 4, 4, (UINT32)(v >> 32));
	} else {
		a->hw->config_write(a->bdf, r, (unsigned)a->size, (UINT32)v);
	}
}

/* Splits a Pci.Read/Write address into the function and the register; a bus outside the
 * bridge's range is refused (ECAM has no room for it: the access would land elsewhere). */
static EFI_STATUS decode_config_address(UINT64 address, struct access *a)
{
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_PCI_ADDRESS pa;

	mem_copy(&pa, &address, sizeof(pa));
	if (pa.Device > PCI_MAX_DEVICE || pa.Function > PCI_MAX_FUNC || pa.Bus < a->hw->bus_base ||
	    pa.Bus > a->hw->bus_limit)
		return EFI_INVALID_PARAMETER;
	a->bdf = (UINT32)pa.Bus << 8 | (UINT32)pa.Device << 3 | pa.Function;
	a->address = pa.ExtendedRegister ? pa.ExtendedRegister : pa.Register;
	return EFI_SUCCESS;
}

/* Validates width, alignment and range of count accesses and sets up the first. */
static EFI_STATUS prepare(const struct root_bridge *rb, enum space space,
			  EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH width, UINT64 address, UINTN count,
			  struct access *a)
{
	UINT64 span, last, limit;

	if ((UINT32)width >= EfiPciWidthMaximum)
		return EFI_INVALID_PARAMETER;
	a->hw = &rb->hw;
	a->space = space;
	a->size = (UINTN)1 << (width & 3);
	a->step_address = width < EfiPciWidthFifoUint8 || width >= EfiPciWidthFillUint8;
	a->step_buffer = width < EfiPciWidthFillUint8;
	a->address = address;
	if (space == SPACE_IO && a->size == 8)
		return EFI_INVALID_PARAMETER;
	if (space == SPACE_PCI && EFI_ERROR(decode_config_address(address, a)))
		return EFI_INVALID_PARAMETER;
	if (a->address & (a->size - 1))
		return EFI_UNSUPPORTED;
	span = a->step_address && count ? count - 1 : 0;
	if (mul_overflows(span, (UINT64)a->size, &span) ||
	    add_overflows(span, a->size - 1, &span) || add_overflows(a->address, span, &last))
		return EFI_INVALID_PARAMETER;
	limit = space == SPACE_MEM	 ? UINT64_MAX
		: space == SPACE_IO	 ? rb->hw.io_space_limit
		: rb->hw.extended_config ? PCI_EXPRESS_CONFIG_SPACE_SIZE - 1
					 : PCI_CONFIG_SPACE_SIZE - 1;
	return last > limit ? EFI_INVALID_PARAMETER : EFI_SUCCESS;
}

/* Plain Mem.Read of 32-bit units, the way option ROMs are copied: one volatile load each,
 * as read_one does, without its per-unit dispatch and byte copy (a 64 KiB ROM cost about
 * 0.25 ms of virtual boot time through the general loop). */
static void mem_read32(UINT64 address, UINTN count, UINT8 *buf)
{
	const volatile UINT32 *p = (const volatile UINT32 *)(uintptr_t)address;

	for (UINTN i = 0; i < count; i++) {
		UINT32 v = p[i];
		__builtin_memcpy(buf + 4 * i, &v, 4);
	}
}

static EFI_STATUS transfer(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *this, enum space space, bool write,
			   EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH width, UINT64 address, UINTN count,
			   void *buffer)
{
	struct access a;
	UINT8 *buf = buffer;
	EFI_STATUS status;

	if (!buffer)
		return EFI_INVALID_PARAMETER;
	status = prepare(rb_from(this), space, width, address, count, &a);
	if (EFI_ERROR(status))
		return status;
	if (space == SPACE_MEM && !write && width == EfiPciWidthUint32) {
		mem_read32(a.address, count, buf);
		return EFI_SUCCESS;
	}
	for (UINTN i = 0; i < count; i++) {
		UINT64 v = 0;
		if (write) {
			mem_copy(&v, buf, a.size);
			write_one(&a, v);
		} else {
			v = read_one(&a);
			mem_copy(buf, &v, a.size);
		}
		if (a.step_address)
			a.address += a.size;
		if (a.step_buffer)
			buf += a.size;
	}
	return EFI_SUCCESS;
}

/* Mem, Io and Pci's Read and Write: the spec's entries, alike but for the space and the
 * direction they pass to transfer(). */
#define RB_TRANSFER_ENTRY(name, space, write)                                                      \
	static EFI_STATUS EFIAPI name(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,                       \
				      EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address, \
				      UINTN Count, VOID *Buffer)                                   \
	{                                                                                          \
		return transfer(This, space, write, Width, Address, Count, Buffer);                \
	}

RB_TRANSFER_ENTRY(rb_mem_read, SPACE_MEM, false)
RB_TRANSFER_ENTRY(rb_mem_write, SPACE_MEM, true)
RB_TRANSFER_ENTRY(rb_io_read, SPACE_IO, false)
RB_TRANSFER_ENTRY(rb_io_write, SPACE_IO, true)
RB_TRANSFER_ENTRY(rb_pci_read, SPACE_PCI, false)
RB_TRANSFER_ENTRY(rb_pci_write, SPACE_PCI, true)

/* Reads until (value & Mask) == Value or Delay (100 ns units) has passed. */
static EFI_STATUS poll(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *this, enum space space,
		       EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH width, UINT64 address, UINT64 mask,
		       UINT64 value, UINT64 delay, UINT64 *result)
{
	struct access a;
	UINT64 deadline;
	EFI_STATUS status;

	if (!result || width > EfiPciWidthUint64)
		return EFI_INVALID_PARAMETER;
	status = prepare(rb_from(this), space, width, address, 1, &a);
	if (EFI_ERROR(status))
		return status;
	*result = read_one(&a);
	if (delay == 0 || (*result & mask) == value)
		return EFI_SUCCESS;
	deadline = plat_monotonic_ns() + (delay > UINT64_MAX / 100 ? UINT64_MAX / 2 : delay * 100);
	while (plat_monotonic_ns() < deadline) {
		core_stall_us(1);
		*result = read_one(&a);
		if ((*result & mask) == value)
			return EFI_SUCCESS;
	}
	return EFI_TIMEOUT;
}

static EFI_STATUS EFIAPI rb_poll_mem(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				     EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				     UINT64 Mask, UINT64 Value, UINT64 Delay, UINT64 *Result)
{
	return poll(This, SPACE_MEM, Width, Address, Mask, Value, Delay, Result);
}

static EFI_STATUS EFIAPI rb_poll_io(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				    EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width, UINT64 Address,
				    UINT64 Mask, UINT64 Value, UINT64 Delay, UINT64 *Result)
{
	return poll(This, SPACE_IO, Width, Address, Mask, Value, Delay, Result);
}

/* Copies Count elements; overlapping ranges are copied in the safe direction. */
static EFI_STATUS EFIAPI rb_copy_mem(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *This,
				     EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH Width,
				     UINT64 DestAddress, UINT64 SrcAddress, UINTN Count)
{
	struct access src, dst;
	bool backward;

	if (Width > EfiPciWidthUint64)
		return EFI_INVALID_PARAMETER;
	if (EFI_ERROR(prepare(rb_from(This), SPACE_MEM, Width, SrcAddress, Count, &src)) ||
	    EFI_ERROR(prepare(rb_from(This), SPACE_MEM, Width, DestAddress, Count, &dst)))
		return EFI_INVALID_PARAMETER;
	if (DestAddress == SrcAddress || !Count)
		return EFI_SUCCESS;
	backward = DestAddress > SrcAddress && DestAddress < SrcAddress + Count * src.size;
	for (UINTN i = 0; i < Count; i++) {
		UINT64 offset = (backward ? Count - 1 - i : i) * src.size;
		src.address = SrcAddress + offset;
		dst.address = DestAddress + offset;
		write_one(&dst, read_one(&src));
	}
	return EFI_SUCCESS;
}

void rb_io_fill(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *io)
{
	io->PollMem = rb_poll_mem;
	io->PollIo = rb_poll_io;
	io->Mem.Read = rb_mem_read;
	io->Mem.Write = rb_mem_write;
	io->Io.Read = rb_io_read;
	io->Io.Write = rb_io_write;
	io->Pci.Read = rb_pci_read;
	io->Pci.Write = rb_pci_write;
	io->CopyMem = rb_copy_mem;
}
