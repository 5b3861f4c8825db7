/* EFI_PCI_IO_PROTOCOL accessors (drivers/pci/pci_io.c, UEFI 2.10 14.4) over the simulated
 * machine: Mem and Io are relative to the BAR (or absolute through the pass-through BAR),
 * refuse a range that leaves the BAR or a BAR of the other kind without touching the bus,
 * and pass the width on, FIFO and FILL included; Pci is relative to the function;
 * PollMem, PollIo and CopyMem check their ranges the same way. */
#include <string.h>

#include "support/test.h"
#include "pci_sim.h"
#include <ember/core/core.h>

/* The NIC of the standard machine (00:02.0), with the bases of its BARs. */
struct nic {
	EFI_PCI_IO_PROTOCOL *io;
	UINT64 io_base, mem_base, mem64_base;
};

static bool start_nic(struct nic *n)
{
	UINTN count;
	UINT64 len, gran;

	pci_sim_standard_machine();
	if (!pci_sim_start())
		return false;
	n->io = pci_sim_child(0, 2, 0, &count, NULL);
	if (!n->io)
		return false;
	n->io_base = pci_sim_bar(n->io, 0, &len, &gran);
	n->mem_base = pci_sim_bar(n->io, 1, &len, &gran);
	n->mem64_base = pci_sim_bar(n->io, 4, &len, &gran);
	return n->io_base && n->mem_base && n->mem64_base;
}

TEST(pci_io_mem_widths_reach_the_bar)
{
	struct nic n;
	UINT8 b[16], expect[16];
	UINT16 w[2] = {0x1234, 0x5678};
	UINT32 d = 0xdeadbeef;
	UINT64 q = 0x0123456789abcdefULL, q_back = 0;

	ASSERT(start_nic(&n));
	EFI_PCI_IO_PROTOCOL *io = n.io;
	EXPECT_STATUS(io->Mem.Write(io, EfiPciIoWidthUint16, 1, 0x10, 2, w), EFI_SUCCESS);
	EXPECT_EQ(pci_sim.last.address, n.mem_base + 0x10);
	EXPECT_EQ(pci_sim.last.width, EfiPciWidthUint16);
	EXPECT_EQ(pci_sim.last.count, 2);
	pci_sim_peek(false, n.mem_base + 0x10, b, 4);
	EXPECT(!memcmp(b, "\x34\x12\x78\x56", 4));
	EXPECT_STATUS(io->Mem.Write(io, EfiPciIoWidthUint32, 1, 0x20, 1, &d), EFI_SUCCESS);
	EXPECT_STATUS(io->Mem.Write(io, EfiPciIoWidthUint64, 1, 0xff8, 1, &q), EFI_SUCCESS);
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint64, 1, 0xff8, 1, &q_back), EFI_SUCCESS);
	EXPECT_EQ(q_back, q);
	/* Byte reads see what the wider writes left. */
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint8, 1, 0x20, 4, b), EFI_SUCCESS);
	EXPECT(!memcmp(b, "\xef\xbe\xad\xde", 4));
	/* The 64-bit BAR above 4 GiB, and the pass-through BAR at the same absolute address. */
	memset(expect, 0xa5, sizeof(expect));
	EXPECT_STATUS(io->Mem.Write(io, EfiPciIoWidthUint8, 4, 0x3ff0, 16, expect), EFI_SUCCESS);
	EXPECT_EQ(pci_sim.last.address, n.mem64_base + 0x3ff0);
	EXPECT(n.mem64_base >= 0x800000000ULL);
	memset(b, 0, sizeof(b));
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint8, EFI_PCI_IO_PASS_THROUGH_BAR,
				   n.mem64_base + 0x3ff0, 16, b),
		      EFI_SUCCESS);
	EXPECT(!memcmp(b, expect, 16));
	pci_sim_remove();
}

TEST(pci_io_fifo_and_fill_span_what_they_touch)
{
	struct nic n;
	UINT32 fifo[3] = {1, 2, 3}, back[3] = {0}, fill = 0x11223344, last = 0;
	UINT16 fill16 = 0xbeef, got16[4];

	ASSERT(start_nic(&n));
	EFI_PCI_IO_PROTOCOL *io = n.io;
	/* FIFO: every element goes to the same register, so only one element must fit: the
	 * BAR's last dword takes three writes and keeps the last. */
	EXPECT_STATUS(io->Mem.Write(io, EfiPciIoWidthFifoUint32, 1, 0xffc, 3, fifo), EFI_SUCCESS);
	EXPECT_EQ(pci_sim.last.width, EfiPciWidthFifoUint32);
	pci_sim_peek(false, n.mem_base + 0xffc, &last, 4);
	EXPECT_EQ(last, 3);
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthFifoUint32, 1, 0xffc, 3, back), EFI_SUCCESS);
	EXPECT(back[0] == 3 && back[1] == 3 && back[2] == 3);
	/* The same count at a plain width leaves the BAR. */
	unsigned calls = pci_sim.mem_calls;
	EXPECT_STATUS(io->Mem.Write(io, EfiPciIoWidthUint32, 1, 0xffc, 3, fifo), EFI_UNSUPPORTED);
	EXPECT_EQ(pci_sim.mem_calls, calls);
	/* FILL: one element written to successive addresses; the span is every address. */
	EXPECT_STATUS(io->Mem.Write(io, EfiPciIoWidthFillUint16, 1, 0x40, 4, &fill16), EFI_SUCCESS);
	pci_sim_peek(false, n.mem_base + 0x40, got16, sizeof(got16));
	EXPECT(got16[0] == 0xbeef && got16[1] == 0xbeef && got16[2] == 0xbeef &&
	       got16[3] == 0xbeef);
	EXPECT_STATUS(io->Mem.Write(io, EfiPciIoWidthFillUint32, 1, 0xff8, 3, &fill),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Mem.Write(io, EfiPciIoWidthFillUint32, 1, 0xff8, 2, &fill), EFI_SUCCESS);
	/* I/O FIFO, as a driver pumps a data port. */
	UINT8 port_bytes[4] = {9, 8, 7, 6}, port = 0;
	EXPECT_STATUS(io->Io.Write(io, EfiPciIoWidthFifoUint8, 0, 0x1f, 4, port_bytes),
		      EFI_SUCCESS);
	pci_sim_peek(true, n.io_base + 0x1f, &port, 1);
	EXPECT_EQ(port, 6);
	pci_sim_remove();
}

TEST(pci_io_refuses_ranges_outside_the_bar)
{
	struct nic n;
	UINT32 v = 0;
	UINT8 b = 0;

	ASSERT(start_nic(&n));
	EFI_PCI_IO_PROTOCOL *io = n.io;
	unsigned mem = pci_sim.mem_calls, ios = pci_sim.io_calls;
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint32, 1, 0xffd, 1, &v), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint8, 1, 0x1000, 1, &b), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint8, 1, ~0ULL, 1, &b), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint8, 2, 0, 1, &b), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint8, 5, 0, 1, &b), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint8, 0, 0, 1, &b), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Io.Read(io, EfiPciIoWidthUint8, 1, 0, 1, &b), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Io.Read(io, EfiPciIoWidthUint16, 0, 0x1f, 1, &v), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Io.Write(io, EfiPciIoWidthUint32, 0, 0x1e, 1, &v), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Mem.Read(io, EfiPciIoWidthUint8, 1, 0, 1, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(io->Io.Write(io, EfiPciIoWidthMaximum, 0, 0, 1, &b), EFI_INVALID_PARAMETER);
	/* A count whose byte span overflows is refused, never wrapped into the BAR. */
	EXPECT(EFI_ERROR(io->Mem.Read(io, EfiPciIoWidthUint64, 1, 0, ~(UINTN)0 / 4, &v)));
	EXPECT_EQ(pci_sim.mem_calls, mem);
	EXPECT_EQ(pci_sim.io_calls, ios);
	/* The I/O BAR's last byte is in range. */
	b = 0x5a;
	EXPECT_STATUS(io->Io.Write(io, EfiPciIoWidthUint8, 0, 0x1f, 1, &b), EFI_SUCCESS);
	EXPECT_EQ(pci_sim.last.address, n.io_base + 0x1f);
	b = 0;
	EXPECT_STATUS(io->Io.Read(io, EfiPciIoWidthUint8, 0, 0x1f, 1, &b), EFI_SUCCESS);
	EXPECT_EQ(b, 0x5a);
	pci_sim_remove();
}

TEST(pci_io_config_space_is_the_functions)
{
	struct nic n;
	UINT8 pin = 0, line = 11;
	UINT16 ids[2] = {0}, fifo[3] = {0};
	UINT64 q = 0;
	UINT32 ext = 0;

	ASSERT(start_nic(&n));
	EFI_PCI_IO_PROTOCOL *io = n.io;
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthUint8, PCI_INTERRUPT_PIN_OFFSET, 1, &pin),
		      EFI_SUCCESS);
	EXPECT_EQ(pin, 1);
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthUint16, 0, 2, ids), EFI_SUCCESS);
	EXPECT(ids[0] == 0x1af4 && ids[1] == 0x1000);
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthUint64, 0, 1, &q), EFI_SUCCESS);
	EXPECT_EQ(q & 0xffffffff, 0x10001af4);
	/* FIFO reads the same register each time. */
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthFifoUint16, 0, 3, fifo), EFI_SUCCESS);
	EXPECT(fifo[0] == 0x1af4 && fifo[1] == 0x1af4 && fifo[2] == 0x1af4);
	EXPECT_STATUS(io->Pci.Write(io, EfiPciIoWidthUint8, PCI_INTERRUPT_LINE_OFFSET, 1, &line),
		      EFI_SUCCESS);
	EXPECT_EQ(pci_sim_funcs[1].cfg[PCI_INTERRUPT_LINE_OFFSET], 11);
	/* The extended space ends at 4 KiB. */
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthUint32, 0xffc, 1, &ext), EFI_SUCCESS);
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthUint8, 0x1000, 1, &pin), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthUint8, ~0U, 1, &pin), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthUint8, 0, 1, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(io->Pci.Write(io, EfiPciIoWidthMaximum, 0, 1, &pin), EFI_INVALID_PARAMETER);
	/* Without ECAM the root bridge refuses registers past 0x100: PciIo says unsupported. */
	pci_sim.no_ecam = true;
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthUint32, 0x100, 1, &ext), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->Pci.Read(io, EfiPciIoWidthUint32, 0xfc, 1, &ext), EFI_SUCCESS);
	pci_sim.no_ecam = false;
	pci_sim_remove();
}

TEST(pci_io_poll_waits_for_the_value_or_times_out)
{
	struct nic n;
	UINT64 result = 0;
	UINT8 zero = 0;

	ASSERT(start_nic(&n));
	EFI_PCI_IO_PROTOCOL *io = n.io;
	pci_sim_poke(false, n.mem_base + 0x40, &zero, 1);
	/* Ready after five reads: well within 100 * 100 ns. */
	pci_sim.busy_io = false;
	pci_sim.busy_address = n.mem_base + 0x40;
	pci_sim.busy_value = 0x81;
	pci_sim.busy_reads = 5;
	EXPECT_STATUS(io->PollMem(io, EfiPciIoWidthUint8, 1, 0x40, 0x80, 0x80, 100, &result),
		      EFI_SUCCESS);
	EXPECT_EQ(result, 0x81);
	EXPECT_EQ(pci_sim.last.address, n.mem_base + 0x40);
	EXPECT_EQ(pci_sim.last.delay, 100);
	EXPECT_EQ(pci_sim.last.mask, 0x80);
	/* Ready only after 50 reads: a delay of 10 expires first. */
	pci_sim_poke(false, n.mem_base + 0x40, &zero, 1);
	pci_sim.busy_reads = 50;
	EXPECT_STATUS(io->PollMem(io, EfiPciIoWidthUint8, 1, 0x40, 0x80, 0x80, 10, &result),
		      EFI_TIMEOUT);
	EXPECT_EQ(result & 0x80, 0);
	pci_sim.busy_reads = 0;
	/* PollIo on the I/O BAR. */
	UINT16 status = 0x0004;
	pci_sim_poke(true, n.io_base + 0x10, &status, 2);
	EXPECT_STATUS(io->PollIo(io, EfiPciIoWidthUint16, 0, 0x10, 0x4, 0x4, 1, &result),
		      EFI_SUCCESS);
	EXPECT_EQ(pci_sim.last.address, n.io_base + 0x10);
	EXPECT_EQ(result, 4);
	/* Arguments: FIFO/FILL widths and a NULL result are invalid; ranges as for Mem/Io. */
	unsigned polls = pci_sim.poll_calls;
	EXPECT_STATUS(io->PollMem(io, EfiPciIoWidthFifoUint8, 1, 0, 1, 1, 1, &result),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(io->PollMem(io, EfiPciIoWidthUint8, 1, 0, 1, 1, 1, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(io->PollMem(io, EfiPciIoWidthUint32, 1, 0xffd, 1, 1, 1, &result),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(io->PollIo(io, EfiPciIoWidthUint8, 1, 0, 1, 1, 1, &result), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->PollIo(io, EfiPciIoWidthUint64, 0, 0x1c, 1, 1, 1, &result),
		      EFI_UNSUPPORTED);
	EXPECT_EQ(pci_sim.poll_calls, polls);
	pci_sim_remove();
}

TEST(pci_io_copy_mem_between_bars)
{
	struct nic n;
	UINT32 pattern[4] = {0x11111111, 0x22222222, 0x33333333, 0x44444444}, got[4] = {0};

	ASSERT(start_nic(&n));
	EFI_PCI_IO_PROTOCOL *io = n.io;
	pci_sim_poke(false, n.mem_base, pattern, sizeof(pattern));
	EXPECT_STATUS(io->CopyMem(io, EfiPciIoWidthUint32, 1, 0x100, 1, 0, 4), EFI_SUCCESS);
	EXPECT_EQ(pci_sim.last.address, n.mem_base + 0x100);
	EXPECT_EQ(pci_sim.last.address2, n.mem_base);
	EXPECT_EQ(pci_sim.last.count, 4);
	pci_sim_peek(false, n.mem_base + 0x100, got, sizeof(got));
	EXPECT(!memcmp(got, pattern, sizeof(got)));
	/* From the 32-bit BAR to the 64-bit one. */
	EXPECT_STATUS(io->CopyMem(io, EfiPciIoWidthUint64, 4, 0x3ff0, 1, 0, 2), EFI_SUCCESS);
	pci_sim_peek(false, n.mem64_base + 0x3ff0, got, sizeof(got));
	EXPECT(!memcmp(got, pattern, sizeof(got)));
	unsigned copies = pci_sim.copy_calls;
	EXPECT_STATUS(io->CopyMem(io, EfiPciIoWidthUint32, 1, 0xff8, 1, 0, 4), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->CopyMem(io, EfiPciIoWidthUint32, 1, 0, 1, 0xff8, 4), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->CopyMem(io, EfiPciIoWidthUint8, 0, 0, 1, 0, 4), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->CopyMem(io, EfiPciIoWidthUint8, 1, 0, 3, 0, 4), EFI_UNSUPPORTED);
	EXPECT_STATUS(io->CopyMem(io, EfiPciIoWidthFifoUint32, 1, 0x100, 1, 0, 1),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(io->CopyMem(io, EfiPciIoWidthMaximum, 1, 0x100, 1, 0, 1),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(pci_sim.copy_calls, copies);
	pci_sim_remove();
}
