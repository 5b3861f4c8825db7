/* The interrupt controller, as far as the firmware needs it: one private peripheral
 * interrupt (the virtual timer's) delivered to the boot CPU as an IRQ.
 *  - GICv2: the distributor and the memory-mapped CPU interface.
 *  - GICv3: the distributor with affinity routing, the boot CPU's redistributor (where
 *    private interrupts are configured) and the system-register CPU interface (ICC_*_EL1;
 *    entry.S opens it to EL1 when QEMU starts the firmware at EL2).
 * Group 1 only: virt's GIC has no security extensions unless EL3 is emulated, and then
 * the non-secure world sees only group 1. */
#include "aarch64.h"

#define GICD_CTLR 0x000
#define GICD_ISENABLER 0x100
#define GICD_ICENABLER 0x180
#define GICD_IPRIORITYR 0x400
#define GICD_CTLR_RWP (1u << 31)
#define GICD_CTLR_ENABLE_GRP1 0x3 /* both group-1 enable bits, whichever view the GIC gives */
#define GICD_CTLR_ARE (1u << 4)
#define GICC_CTLR 0x00
#define GICC_PMR 0x04
#define GICC_IAR 0x0c
#define GICC_EOIR 0x10

/* A redistributor is two 64 KiB frames: RD_base (control), then SGI_base (SGIs and PPIs). */
#define GICR_WAKER 0x0014
#define GICR_TYPER 0x0008
#define GICR_TYPER_VLPIS (1u << 1) /* GICv4: two more frames per redistributor */
#define GICR_TYPER_LAST (1u << 4)
#define GICR_WAKER_PROCESSOR_SLEEP (1u << 1)
#define GICR_WAKER_CHILDREN_ASLEEP (1u << 2)
#define GICR_SGI 0x10000
#define GICR_IGROUPR0 (GICR_SGI + 0x080)
#define GICR_ISENABLER0 (GICR_SGI + 0x100)
#define GICR_ICENABLER0 (GICR_SGI + 0x180)
#define GICR_IPRIORITYR (GICR_SGI + 0x400)

#define PRIORITY_MASK 0xf0 /* lets through anything of a higher priority (lower value) */
#define POLL_LIMIT 1000000

/* The GICv3 CPU interface's registers, by encoding: assemblers name them only for some
 * target features. READ_ICC and WRITE_ICC expand the name before READ_SYSREG quotes it. */
#define ICC_PMR_EL1 s3_0_c4_c6_0
#define ICC_IAR1_EL1 s3_0_c12_c12_0
#define ICC_EOIR1_EL1 s3_0_c12_c12_1
#define ICC_BPR1_EL1 s3_0_c12_c12_3
#define ICC_SRE_EL1 s3_0_c12_c12_5
#define ICC_IGRPEN1_EL1 s3_0_c12_c12_7
#define ICC_SRE_SRE 1u
#define READ_ICC(reg) READ_SYSREG(reg)
#define WRITE_ICC(reg, value) WRITE_SYSREG(reg, value)

static uint64_t redistributor; /* the boot CPU's RD_base (GICv3); 0 before gic_init */

/* The redistributor whose affinity is this CPU's (GICR_TYPER[63:32] against MPIDR_EL1);
 * 0 when the region holds none. */
static uint64_t find_redistributor(void)
{
	uint64_t mpidr = READ_SYSREG(mpidr_el1);
	uint32_t affinity = (uint32_t)((mpidr >> 8 & 0xff000000) | (mpidr & 0xffffff));
	uint64_t at = machine.gicr_base, end = machine.gicr_base + machine.gicr_size;

	while (at + 0x20000 <= end) {
		uint32_t type = mmio_read32(at + GICR_TYPER);

		if (mmio_read32(at + GICR_TYPER + 4) == affinity)
			return at;
		if (type & GICR_TYPER_LAST)
			break;
		at += type & GICR_TYPER_VLPIS ? 0x40000 : 0x20000;
	}
	return 0;
}

static void wait_while(uint64_t address, uint32_t bits)
{
	for (uint32_t i = 0; i < POLL_LIMIT && mmio_read32(address) & bits; i++)
		;
}

static bool init_v3(void)
{
	/* ID_AA64PFR0_EL1.GIC: the CPU has the system-register interface (else ICC_* trap). */
	if (!(READ_SYSREG(id_aa64pfr0_el1) >> 24 & 0xf))
		return false;
	redistributor = find_redistributor();
	if (!redistributor)
		return false;
	/* Affinity routing first: the enable bits mean something else without it. */
	mmio_write32(machine.gicd_base + GICD_CTLR, GICD_CTLR_ARE);
	wait_while(machine.gicd_base + GICD_CTLR, GICD_CTLR_RWP);
	mmio_write32(machine.gicd_base + GICD_CTLR, GICD_CTLR_ARE | GICD_CTLR_ENABLE_GRP1);
	wait_while(machine.gicd_base + GICD_CTLR, GICD_CTLR_RWP);
	/* The redistributor wakes up before it forwards anything to this CPU. */
	mmio_write32(redistributor + GICR_WAKER,
		     mmio_read32(redistributor + GICR_WAKER) & ~GICR_WAKER_PROCESSOR_SLEEP);
	wait_while(redistributor + GICR_WAKER, GICR_WAKER_CHILDREN_ASLEEP);
	WRITE_ICC(ICC_SRE_EL1, READ_ICC(ICC_SRE_EL1) | ICC_SRE_SRE);
	ISB();
	if (!(READ_ICC(ICC_SRE_EL1) & ICC_SRE_SRE))
		return false; /* the system registers are closed to EL1 */
	WRITE_ICC(ICC_PMR_EL1, PRIORITY_MASK);
	WRITE_ICC(ICC_BPR1_EL1, 0);
	WRITE_ICC(ICC_IGRPEN1_EL1, 1);
	ISB();
	return true;
}

bool gic_init(void)
{
	switch (machine.gic_version) {
	case 2:
		mmio_write32(machine.gicd_base + GICD_CTLR, 1);
		mmio_write32(machine.gicc_base + GICC_PMR, PRIORITY_MASK);
		mmio_write32(machine.gicc_base + GICC_CTLR, 1);
		return true;
	case 3:
		if (init_v3())
			return true;
		machine.gic_version = 0;
		return false;
	default:
		return false;
	}
}

void gic_enable_ppi(uint32_t intid, uint8_t priority)
{
	uint32_t bit = 1u << (intid % 32);

	if (machine.gic_version == 2) {
		mmio_write8(machine.gicd_base + GICD_IPRIORITYR + intid, priority);
		mmio_write32(machine.gicd_base + GICD_ISENABLER + intid / 32 * 4, bit);
	} else if (machine.gic_version == 3) {
		mmio_write8(redistributor + GICR_IPRIORITYR + intid, priority);
		mmio_write32(redistributor + GICR_IGROUPR0,
			     mmio_read32(redistributor + GICR_IGROUPR0) | bit);
		mmio_write32(redistributor + GICR_ISENABLER0, bit);
	}
}

void gic_disable_ppi(uint32_t intid)
{
	uint32_t bit = 1u << (intid % 32);

	if (machine.gic_version == 2)
		mmio_write32(machine.gicd_base + GICD_ICENABLER + intid / 32 * 4, bit);
	else if (machine.gic_version == 3)
		mmio_write32(redistributor + GICR_ICENABLER0, bit);
}

uint32_t gic_acknowledge(void)
{
	if (machine.gic_version == 3)
		return (uint32_t)READ_ICC(ICC_IAR1_EL1) & 0xffffff;
	return mmio_read32(machine.gicc_base + GICC_IAR) & 0x3ff;
}

void gic_end(uint32_t intid)
{
	if (machine.gic_version == 3) {
		WRITE_ICC(ICC_EOIR1_EL1, intid);
		ISB();
	} else {
		mmio_write32(machine.gicc_base + GICC_EOIR, intid);
	}
}
