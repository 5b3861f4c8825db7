/* The root bridge protocol the platforms share (drivers/pci_root_bridge) over fake hooks:
 * configuration cycles only inside the bus range (ECAM has no room for others), I/O cycles
 * through the platform's hook at PCI port numbers and bounded by its I/O space, and
 * Configuration() giving the I/O aperture as host addresses with the translation offset
 * (UEFI 2.7 on), as Arm's memory-mapped I/O window needs; bus-master DMA through a bounce
 * buffer below 4 GiB for 32-bit operations, and AllocateBuffer's and FreeBuffer's checks. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/drivers/pci_root_bridge.h>
#include <ember/lib/guids.h>
#include <efi/pci.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/pci_root_bridge_io.h>

static struct {
	unsigned config_calls, io_calls;
	uint32_t bdf;
	uint16_t offset;
	uint64_t port;
	unsigned size;
	uint32_t written;
} seen;

static uint32_t fake_config_read(uint32_t bdf, uint16_t offset, unsigned size)
{
	seen.config_calls++;
	seen.bdf = bdf;
	seen.offset = offset;
	seen.size = size;
	return 0x12345678u & (size == 4 ? 0xffffffffu : (1u << size * 8) - 1);
}

static void fake_config_write(uint32_t bdf, uint16_t offset, unsigned size, uint32_t value)
{
	seen.config_calls++;
	seen.bdf = bdf;
	seen.written = value;
}

static uint32_t fake_io_read(uint64_t port, unsigned size)
{
	seen.io_calls++;
	seen.port = port;
	seen.size = size;
	return 0xab;
}

static void fake_io_write(uint64_t port, unsigned size, uint32_t value)
{
	seen.io_calls++;
	seen.port = port;
	seen.written = value;
}

/* virt's bridge without highmem: 16 buses, ports 0-0xffff at 0x3eff0000. */
static EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *install(EFI_HANDLE *handle)
{
	struct pci_root_bridge_hw hw = {
	    .config_read = fake_config_read,
	    .config_write = fake_config_write,
	    .io_read = fake_io_read,
	    .io_write = fake_io_write,
	    .apertures = {0x1000, 0xffff, 0x10000000, 0x3efeffff, 1, 0},
	    .io_host_base = 0x3eff0000,
	    .io_space_limit = 0xffff,
	    .bus_base = 0,
	    .bus_limit = 15,
	    .extended_config = true,
	};
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = NULL;

	*handle = NULL;
	seen = (__typeof__(seen)){0};
	if (EFI_ERROR(pci_root_bridge_install(&hw, handle)) ||
	    EFI_ERROR(protocol_get(*handle, &efi_pci_root_bridge_io_protocol_guid, (void **)&rb)))
		return NULL;
	return rb;
}

static void uninstall(EFI_HANDLE handle, EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb)
{
	void *path;

	ASSERT_STATUS(protocol_get(handle, &efi_device_path_protocol_guid, &path), EFI_SUCCESS);
	EXPECT_STATUS(protocol_uninstall_multiple(handle, &efi_device_path_protocol_guid, path,
						  &efi_pci_root_bridge_io_protocol_guid, rb, NULL),
		      EFI_SUCCESS);
}

static UINT64 config_address(UINT8 bus, UINT8 dev, UINT8 fn, UINT8 reg)
{
	return EFI_PCI_ADDRESS(bus, dev, fn, reg);
}

TEST(pci_root_bridge_configuration_cycles_stay_in_the_bus_range)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	UINT32 value = 0;

	ASSERT(rb != NULL);
	EXPECT_STATUS(rb->Pci.Read(rb, EfiPciWidthUint32, config_address(15, 3, 1, 8), 1, &value),
		      EFI_SUCCESS);
	EXPECT_EQ(value, 0x12345678u);
	EXPECT_EQ(seen.bdf, 15u << 8 | 3 << 3 | 1);
	EXPECT_EQ(seen.offset, 8);
	EXPECT_STATUS(rb->Pci.Read(rb, EfiPciWidthUint32, config_address(16, 0, 0, 0), 1, &value),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Pci.Write(rb, EfiPciWidthUint8, config_address(200, 0, 0, 0), 1, &value),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(seen.config_calls, 1);
	uninstall(handle, rb);
}

TEST(pci_root_bridge_io_cycles_go_to_the_platform_at_pci_ports)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	UINT8 b = 0;
	UINT16 w = 0x5a5a;
	UINT64 q = 0;

	ASSERT(rb != NULL);
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthUint8, 0x1010, 1, &b), EFI_SUCCESS);
	EXPECT_EQ(b, 0xab);
	EXPECT_EQ(seen.port, 0x1010);
	EXPECT_EQ(seen.size, 1);
	EXPECT_STATUS(rb->Io.Write(rb, EfiPciWidthUint16, 0xfffe, 1, &w), EFI_SUCCESS);
	EXPECT_EQ(seen.port, 0xfffe);
	EXPECT_EQ(seen.written, 0x5a5a);
	/* Past the I/O space, and 64-bit I/O, are refused before any cycle. */
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthUint16, 0xffff, 1, &w), EFI_UNSUPPORTED);
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthUint32, 0xfffc, 2, &q), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthUint64, 0x1000, 1, &q), EFI_INVALID_PARAMETER);
	EXPECT_EQ(seen.io_calls, 2);
	uninstall(handle, rb);
}

TEST(pci_root_bridge_configuration_gives_host_addresses_and_translation)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR *d;

	ASSERT(rb != NULL);
	ASSERT_STATUS(rb->Configuration(rb, (void **)&d), EFI_SUCCESS);
	EXPECT_EQ(d[0].ResType, ACPI_ADDRESS_SPACE_TYPE_IO);
	EXPECT_EQ(d[0].AddrRangeMin, 0x3eff1000ULL);
	EXPECT_EQ(d[0].AddrRangeMax, 0x3effffffULL);
	EXPECT_EQ(d[0].AddrRangeMin + d[0].AddrTranslationOffset, 0x1000ULL);
	EXPECT_EQ(d[1].AddrRangeMin, 0x10000000ULL);
	EXPECT_EQ(d[1].AddrTranslationOffset, 0);
	EXPECT_EQ(d[2].AddrLen, 0); /* no 64-bit window */
	EXPECT_EQ(d[3].ResType, ACPI_ADDRESS_SPACE_TYPE_BUS);
	EXPECT_EQ(d[3].AddrRangeMax, 15);
	uninstall(handle, rb);
}

/* A 32-bit bus-master operation on a host buffer above 4 GiB (the test's heap) goes through
 * a bounce buffer below it: Read copies the data in at Map, Write copies it back at Unmap;
 * 64-bit operations and buffers below 4 GiB are used as they are; a common buffer above
 * 4 GiB is refused (it must come from AllocateBuffer). */
TEST(pci_root_bridge_map_bounces_32_bit_dma_above_4_gib)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	UINT8 *host = malloc(64), *below = NULL;
	EFI_PHYSICAL_ADDRESS device;
	UINTN bytes = 64;
	void *mapping;

	ASSERT(rb != NULL && host != NULL);
	if ((uintptr_t)host < 0x100000000ULL) { /* the check needs a buffer above 4 GiB */
		free(host);
		host = mmap((void *)0x200000000ULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT(host != MAP_FAILED && (uintptr_t)host >= 0x100000000ULL);
	}
	memset(host, 0x5a, 64);
	ASSERT_STATUS(rb->Map(rb, EfiPciOperationBusMasterRead, host, &bytes, &device, &mapping),
		      EFI_SUCCESS);
	EXPECT(device < 0x100000000ULL && device != (uintptr_t)host);
	EXPECT_EQ(((UINT8 *)(uintptr_t)device)[63], 0x5a);
	EXPECT_STATUS(rb->Unmap(rb, mapping), EFI_SUCCESS);
	EXPECT_STATUS(rb->Unmap(rb, mapping), EFI_INVALID_PARAMETER); /* gone */

	ASSERT_STATUS(rb->Map(rb, EfiPciOperationBusMasterWrite, host, &bytes, &device, &mapping),
		      EFI_SUCCESS);
	memset((void *)(uintptr_t)device, 0xc3, 64); /* what the device wrote */
	EXPECT_EQ(host[0], 0x5a);
	EXPECT_STATUS(rb->Unmap(rb, mapping), EFI_SUCCESS);
	EXPECT_EQ(host[0], 0xc3);
	EXPECT_EQ(host[63], 0xc3);

	ASSERT_STATUS(rb->Map(rb, EfiPciOperationBusMasterRead64, host, &bytes, &device, &mapping),
		      EFI_SUCCESS);
	EXPECT_EQ(device, (uintptr_t)host);
	EXPECT_STATUS(rb->Unmap(rb, mapping), EFI_SUCCESS);
	EXPECT_STATUS(
	    rb->Map(rb, EfiPciOperationBusMasterCommonBuffer, host, &bytes, &device, &mapping),
	    EFI_UNSUPPORTED);

	ASSERT_STATUS(
	    rb->AllocateBuffer(rb, AllocateAnyPages, EfiBootServicesData, 1, (void **)&below, 0),
	    EFI_SUCCESS);
	EXPECT((uintptr_t)below < 0x100000000ULL);
	ASSERT_STATUS(
	    rb->Map(rb, EfiPciOperationBusMasterCommonBuffer, below, &bytes, &device, &mapping),
	    EFI_SUCCESS);
	EXPECT_EQ(device, (uintptr_t)below);
	EXPECT_STATUS(rb->Flush(rb), EFI_SUCCESS);
	EXPECT_STATUS(rb->Unmap(rb, mapping), EFI_SUCCESS);
	EXPECT_STATUS(rb->FreeBuffer(rb, 1, below), EFI_SUCCESS);
	if ((uintptr_t)host >= 0x200000000ULL && (uintptr_t)host < 0x200001000ULL)
		munmap(host, 4096);
	else
		free(host);
	uninstall(handle, rb);
}

TEST(pci_root_bridge_dma_arguments)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	EFI_PHYSICAL_ADDRESS device;
	UINT8 buffer[16];
	UINTN bytes = sizeof(buffer);
	void *mapping, *p;
	int not_a_mapping;

	ASSERT(rb != NULL);
	EXPECT_STATUS(rb->Map(rb, EfiPciOperationBusMasterRead, NULL, &bytes, &device, &mapping),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Map(rb, EfiPciOperationMaximum, buffer, &bytes, &device, &mapping),
		      EFI_INVALID_PARAMETER);
	bytes = ~(UINTN)0; /* wraps around the address space */
	EXPECT_STATUS(rb->Map(rb, EfiPciOperationBusMasterRead, buffer, &bytes, &device, &mapping),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Unmap(rb, &not_a_mapping), EFI_INVALID_PARAMETER);

	EXPECT_STATUS(rb->AllocateBuffer(rb, AllocateAddress, EfiBootServicesData, 1, &p, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->AllocateBuffer(rb, AllocateAnyPages, EfiLoaderData, 1, &p, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->AllocateBuffer(rb, AllocateAnyPages, EfiBootServicesData, 1, NULL, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->AllocateBuffer(rb, AllocateAnyPages, EfiBootServicesData, 1, &p,
					 EFI_PCI_ATTRIBUTE_VGA_IO),
		      EFI_UNSUPPORTED);
	/* Dual address cycle: anywhere; a maximum address: below it. */
	ASSERT_STATUS(rb->AllocateBuffer(rb, AllocateAnyPages, EfiBootServicesData, 2, &p,
					 EFI_PCI_ATTRIBUTE_DUAL_ADDRESS_CYCLE),
		      EFI_SUCCESS);
	EXPECT_STATUS(rb->FreeBuffer(rb, 2, p), EFI_SUCCESS);
	p = (void *)(uintptr_t)0x48000000ULL;
	ASSERT_STATUS(rb->AllocateBuffer(rb, AllocateMaxAddress, EfiRuntimeServicesData, 1, &p, 0),
		      EFI_SUCCESS);
	EXPECT((uintptr_t)p < 0x48000000ULL);
	EXPECT_STATUS(rb->FreeBuffer(rb, 1, p), EFI_SUCCESS);
	EXPECT_STATUS(rb->FreeBuffer(rb, 1, p), EFI_INVALID_PARAMETER); /* not allocated */
	EXPECT_STATUS(rb->FreeBuffer(rb, 1, NULL), EFI_INVALID_PARAMETER);
	uninstall(handle, rb);
}

/* Mem reads and writes on host memory: plain, FIFO (the address stays), Fill (the buffer
 * stays), and the checks made before any access. */
TEST(pci_root_bridge_mem_widths_fifo_and_fill)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	UINT32 mem[4] = {0x11223344, 0x55667788, 0x99aabbcc, 0xddeeff00}, out[4] = {0};
	UINT16 half[4] = {0};
	UINT8 bytes[4] = {0}, in[3] = {0xa, 0xb, 0xc};
	UINT64 quad = 0, wide[2] = {1, 2};
	UINT64 at = (uintptr_t)mem;

	ASSERT(rb != NULL);
	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthUint32, at, 4, out), EFI_SUCCESS);
	EXPECT(memcmp(out, mem, sizeof(mem)) == 0);
	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthUint16, at + 4, 2, half), EFI_SUCCESS);
	EXPECT(half[0] == 0x7788 && half[1] == 0x5566 && half[2] == 0);
	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthFifoUint16, at, 3, half), EFI_SUCCESS);
	EXPECT(half[0] == 0x3344 && half[1] == 0x3344 && half[2] == 0x3344);
	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthFillUint8, at, 3, bytes), EFI_SUCCESS);
	EXPECT(bytes[0] == 0x22 && bytes[1] == 0); /* the last of three bytes read */
	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthUint64, (uintptr_t)wide, 1, &quad), EFI_SUCCESS);
	EXPECT_EQ(quad, 1);

	EXPECT_STATUS(rb->Mem.Write(rb, EfiPciWidthFifoUint8, at + 1, 3, in), EFI_SUCCESS);
	EXPECT_EQ(mem[0], 0x11220c44u); /* one byte, written three times */
	EXPECT_STATUS(rb->Mem.Write(rb, EfiPciWidthFillUint32, at + 4, 3, &mem[0]), EFI_SUCCESS);
	EXPECT(mem[1] == 0x11220c44u && mem[2] == 0x11220c44u && mem[3] == 0x11220c44u);
	EXPECT_STATUS(rb->Mem.Write(rb, EfiPciWidthUint64, (uintptr_t)wide, 1, &wide[1]),
		      EFI_SUCCESS);
	EXPECT_EQ(wide[0], 2);

	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthMaximum, at, 1, out), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Mem.Write(rb, (EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_WIDTH)-1, at, 1, out),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthUint32, at, 1, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Mem.Write(rb, EfiPciWidthUint32, at + 2, 1, out), EFI_UNSUPPORTED);
	/* Past the top of the address space; FIFO never moves, so it may sit at the top. */
	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthUint32, ~(UINT64)0 - 7, 3, out),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Mem.Write(rb, EfiPciWidthFillUint32, ~(UINT64)0 - 7, 3, out),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthUint16, 2, ~(UINTN)0, out),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Mem.Read(rb, EfiPciWidthFifoUint32, at, 0, out), EFI_SUCCESS);
	uninstall(handle, rb);
}

/* Io FIFO and Fill go to the platform's hook port by port; the range is that of the ports
 * touched, so a FIFO may stay at the last port. */
TEST(pci_root_bridge_io_fifo_fill_and_range)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	UINT16 w[3] = {1, 2, 3};
	UINT32 d[2] = {0};
	UINT8 b = 7;

	ASSERT(rb != NULL);
	EXPECT_STATUS(rb->Io.Write(rb, EfiPciWidthFifoUint16, 0x100, 3, w), EFI_SUCCESS);
	EXPECT(seen.io_calls == 3 && seen.port == 0x100 && seen.written == 3);
	EXPECT_STATUS(rb->Io.Write(rb, EfiPciWidthFillUint8, 0x200, 3, &b), EFI_SUCCESS);
	EXPECT(seen.io_calls == 6 && seen.port == 0x202 && seen.written == 7);
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthFifoUint32, 0x300, 2, d), EFI_SUCCESS);
	EXPECT(seen.io_calls == 8 && seen.port == 0x300 && seen.size == 4);
	EXPECT(d[0] == 0xab && d[1] == 0xab);
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthFillUint16, 0xfffc, 2, w), EFI_SUCCESS);
	EXPECT(seen.io_calls == 10 && seen.port == 0xfffe && w[0] == 0xab && w[1] == 2);
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthFifoUint16, 0xfffe, 3, w), EFI_SUCCESS);
	EXPECT(seen.io_calls == 13 && seen.port == 0xfffe);
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthFillUint16, 0xfffc, 3, w), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Io.Write(rb, EfiPciWidthFifoUint64, 0x100, 1, d), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Io.Write(rb, EfiPciWidthFillUint64, 0x100, 1, d), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthUint8, 0x100, 1, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Io.Read(rb, EfiPciWidthMaximum, 0x100, 1, d), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Io.Write(rb, EfiPciWidthFifoUint32, 0x102, 1, d), EFI_UNSUPPORTED);
	EXPECT_EQ(seen.io_calls, 13);
	uninstall(handle, rb);
}

/* A 64-bit configuration access is two 32-bit cycles, and stays in the function's space. */
TEST(pci_root_bridge_configuration_64_bit_and_range)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL_PCI_ADDRESS pa = {.Bus = 1, .ExtendedRegister = 0xff8};
	UINT64 q = 0, two[2], address;

	ASSERT(rb != NULL);
	memcpy(&address, &pa, sizeof(address));
	EXPECT_STATUS(rb->Pci.Read(rb, EfiPciWidthUint64, address, 1, &q), EFI_SUCCESS);
	EXPECT_EQ(q, 0x1234567812345678ULL);
	EXPECT(seen.config_calls == 2 && seen.offset == 0xffc && seen.bdf == 1u << 8);
	q = 0xaabbccdd11223344ULL;
	EXPECT_STATUS(rb->Pci.Write(rb, EfiPciWidthFillUint64, address, 1, &q), EFI_SUCCESS);
	EXPECT(seen.config_calls == 4 && seen.written == 0xaabbccddu);
	EXPECT_STATUS(rb->Pci.Read(rb, EfiPciWidthUint64, address, 2, &q), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->Pci.Read(rb, EfiPciWidthFifoUint64, address, 2, two), EFI_SUCCESS);
	EXPECT(seen.config_calls == 8 && two[1] == 0x1234567812345678ULL);
	EXPECT_STATUS(rb->Pci.Read(rb, EfiPciWidthUint32, address + (2ULL << 32), 1, &q),
		      EFI_UNSUPPORTED);
	uninstall(handle, rb);
}

TEST(pci_root_bridge_poll_mem_and_io)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	UINT32 reg = 0x11223344;
	UINT64 at = (uintptr_t)&reg, result = 0;

	ASSERT(rb != NULL);
	EXPECT_STATUS(rb->PollMem(rb, EfiPciWidthUint32, at, 0xff, 0x44, 10, &result), EFI_SUCCESS);
	EXPECT_EQ(result, 0x11223344);
	EXPECT_STATUS(rb->PollMem(rb, EfiPciWidthUint16, at + 2, 0xff, 0x44, 0, &result),
		      EFI_SUCCESS); /* no delay: one read, whatever it gives */
	EXPECT_EQ(result, 0x1122);
	EXPECT_STATUS(rb->PollMem(rb, EfiPciWidthUint8, at, 0xff, 0x45, 20, &result), EFI_TIMEOUT);
	EXPECT_EQ(result, 0x44);
	EXPECT_STATUS(rb->PollIo(rb, EfiPciWidthUint8, 0x60, 0xf0, 0xa0, 10, &result), EFI_SUCCESS);
	EXPECT(result == 0xab && seen.io_calls == 1 && seen.port == 0x60);
	EXPECT_STATUS(rb->PollIo(rb, EfiPciWidthUint16, 0x60, 0xff, 0, 20, &result), EFI_TIMEOUT);
	EXPECT_STATUS(rb->PollMem(rb, EfiPciWidthFifoUint32, at, 0, 0, 0, &result),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->PollIo(rb, EfiPciWidthUint64, 0x60, 0, 0, 0, &result),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->PollIo(rb, EfiPciWidthUint8, 0x60, 0, 0, 0, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->PollIo(rb, EfiPciWidthUint32, 0xfffe, 0, 0, 0, &result), EFI_UNSUPPORTED);
	EXPECT_STATUS(rb->PollIo(rb, EfiPciWidthUint32, 0x10000, 0, 0, 0, &result),
		      EFI_INVALID_PARAMETER);
	uninstall(handle, rb);
}

/* CopyMem copies overlapping ranges in the direction that keeps the source intact. */
TEST(pci_root_bridge_copy_mem_overlaps)
{
	EFI_HANDLE handle;
	EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb = install(&handle);
	UINT16 buf[8] = {0, 1, 2, 3, 4, 5, 6, 7};
	UINT64 at = (uintptr_t)buf;

	ASSERT(rb != NULL);
	EXPECT_STATUS(rb->CopyMem(rb, EfiPciWidthUint16, at + 2, at, 4), EFI_SUCCESS);
	EXPECT(buf[0] == 0 && buf[1] == 0 && buf[2] == 1 && buf[4] == 3 && buf[5] == 5);
	EXPECT_STATUS(rb->CopyMem(rb, EfiPciWidthUint32, at, at + 4, 2), EFI_SUCCESS);
	EXPECT(buf[0] == 1 && buf[1] == 2 && buf[2] == 3 && buf[3] == 5 && buf[4] == 3);
	EXPECT_STATUS(rb->CopyMem(rb, EfiPciWidthUint16, at, at, 8), EFI_SUCCESS);
	EXPECT_STATUS(rb->CopyMem(rb, EfiPciWidthUint16, at + 2, at, 0), EFI_SUCCESS);
	EXPECT_STATUS(rb->CopyMem(rb, EfiPciWidthFifoUint16, at + 2, at, 1), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->CopyMem(rb, EfiPciWidthUint32, at + 2, at, 1), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(rb->CopyMem(rb, EfiPciWidthUint64, ~(UINT64)0 - 7, at, 2),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(buf[7], 7);
	uninstall(handle, rb);
}
