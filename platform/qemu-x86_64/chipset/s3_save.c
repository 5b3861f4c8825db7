/* The S3 record, written at ExitBootServices into its reserved area (reset/s3.h): what a
 * wake from S3 finds reset and the OS expects as the firmware left it, read back from the
 * hardware and replayed in this order by the reset stage (reset/s3_resume.S):
 *  - the chipset: q35's PCIEXBAR, PAM, SMRAM and the ICH9 PMBASE, ACPI_CNTL, PIRQ routing
 *    and RCBA; i440FX's PAM, PIIX3's PIRQ routing and PIIX4's PM and SMBus bases;
 *  - every PCI function Ember can see, bus by bus from bus 0 (a bridge's bus numbers come
 *    before the devices behind it): BARs, bridge windows and bus numbers, expansion ROM,
 *    interrupt line, then the command register last;
 *  - ACPI mode (SCI_EN in PM1_CNT), then the MTRRs (the default type last).
 * Only physical addresses are kept, so SetVirtualAddressMap leaves the record as it is. */
#define LOG_PREFIX "s3: "
#include <ember/core/log.h>
#include "pure/s3_record.h"
#include "chipset/pci_config.h"
#include "cpu/io.h"
#include "qemu.h"

#define HOST_BRIDGE PCI_BDF(0, 0, 0)
#define ICH9_LPC PCI_BDF(0, 0x1f, 0)
#define PIIX3_ISA PCI_BDF(0, 1, 0)
#define PIIX4_PM PCI_BDF(0, 1, 3)
#define PCI_HEADER_TYPE 0x0e
#define PCI_SECONDARY_BUS 0x19
#define PM1_CNT 4
#define PM1_SCI_EN 1
#define MSR_MTRRCAP 0xfe
#define MSR_MTRR_PHYS_BASE0 0x200
#define MSR_MTRR_DEF_TYPE 0x2ff
#define CPUID1_EDX_MTRR (1u << 12)
#define MTRRCAP_FIXED (1u << 8)

static UINT32 s3_facs;

/* Dword offsets of the chipset registers to keep, per function; 0 ends a list. */
static const UINT8 q35_mch[] = {0x64, 0x60, 0x90, 0x94, 0x9c, 0};
static const UINT8 ich9_lpc[] = {0x40, 0x44, 0x60, 0x68, 0xf0, 0};
static const UINT8 i440fx_host[] = {0x58, 0x5c, 0};
static const UINT8 piix3_isa[] = {0x60, 0};
static const UINT8 piix4_pm[] = {0x40, 0x80, 0x90, 0xd0, 0};
/* The header's writable dwords: BARs (and a bridge's bus numbers and windows), ROM,
 * interrupt line (and bridge control); the command register goes last. */
static const UINT8 header_dwords[] = {0x10, 0x14, 0x18, 0x1c, 0x20, 0x24, 0x28,
				      0x2c, 0x30, 0x38, 0x3c, 0x04, 0};
static const UINT8 device_dwords[] = {0x10, 0x14, 0x18, 0x1c, 0x20, 0x24, 0x30, 0x3c, 0x04, 0};

void s3_save_facs(UINT32 facs)
{
	s3_facs = facs;
}

void s3_save_forget(void)
{
	struct s3_record_builder b;

	/* A warm reset keeps RAM: the last boot's record must not serve a wake before this
	 * boot's ExitBootServices writes its own. */
	s3_record_begin(&b, (void *)(uintptr_t)S3_RECORD, S3_RECORD_MAX, 0);
}

static void add_config(struct s3_record_builder *b, UINT32 bdf, const UINT8 *offsets)
{
	for (; *offsets; offsets++)
		s3_record_add(b, S3_KIND_PCI, S3_PCI_ADDRESS(bdf, *offsets),
			      pci_read32(bdf, *offsets));
}

static void add_chipset(struct s3_record_builder *b)
{
	if (chipset_machine == MACHINE_Q35) {
		add_config(b, HOST_BRIDGE, q35_mch);
		add_config(b, ICH9_LPC, ich9_lpc);
	} else {
		add_config(b, HOST_BRIDGE, i440fx_host);
		add_config(b, PIIX3_ISA, piix3_isa);
		add_config(b, PIIX4_PM, piix4_pm);
	}
}

/* The functions of one bus, then (depth first) the buses behind its bridges. */
static void add_bus(struct s3_record_builder *b, UINT32 bus, UINT32 depth)
{
	for (UINT32 dev = 0; dev < 32; dev++)
		for (UINT32 fn = 0; fn < 8; fn++) {
			UINT32 bdf = PCI_BDF(bus, dev, fn);
			UINT8 type;

			if (pci_read16(bdf, 0) == 0xffff) {
				if (fn == 0)
					break;
				continue;
			}
			type = pci_read8(bdf, PCI_HEADER_TYPE);
			add_config(b, bdf, (type & 0x7f) == 1 ? header_dwords : device_dwords);
			if ((type & 0x7f) == 1 && depth < 32) {
				UINT8 secondary = pci_read8(bdf, PCI_SECONDARY_BUS);
				if (secondary > bus)
					add_bus(b, secondary, depth + 1);
			}
			if (fn == 0 && !(type & 0x80))
				break;
		}
}

static void add_mtrrs(struct s3_record_builder *b)
{
	static const UINT32 fixed[] = {0x250, 0x258, 0x259, 0x268, 0x269, 0x26a,
				       0x26b, 0x26c, 0x26d, 0x26e, 0x26f};
	uint32_t eax, ebx, ecx, edx;
	UINT64 cap;

	cpuid(1, 0, &eax, &ebx, &ecx, &edx);
	if (!(edx & CPUID1_EDX_MTRR))
		return;
	cap = rdmsr(MSR_MTRRCAP);
	if (cap & MTRRCAP_FIXED)
		for (UINTN i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
			s3_record_add(b, S3_KIND_MSR, fixed[i], rdmsr(fixed[i]));
	for (UINT32 i = 0; i < (cap & 0xff); i++) {
		UINT32 msr = MSR_MTRR_PHYS_BASE0 + 2 * i;
		s3_record_add(b, S3_KIND_MSR, msr, rdmsr(msr));
		s3_record_add(b, S3_KIND_MSR, msr + 1, rdmsr(msr + 1));
	}
	s3_record_add(b, S3_KIND_MSR, MSR_MTRR_DEF_TYPE, rdmsr(MSR_MTRR_DEF_TYPE));
}

void s3_save(void)
{
	struct s3_record_builder b;
	UINT16 pm = chipset_pm_base();

	/* Without a FACS there is no waking vector: the record stays invalid. */
	s3_record_begin(&b, (void *)(uintptr_t)S3_RECORD, S3_RECORD_MAX, s3_facs);
	if (!s3_facs)
		return;
	add_chipset(&b);
	add_bus(&b, 0, 0);
	if (pm)
		s3_record_add(&b, S3_KIND_IO16, pm + PM1_CNT, inw(pm + PM1_CNT) & PM1_SCI_EN);
	add_mtrrs(&b);
	if (!s3_record_finish(&b))
		log_warn("Ember: the S3 record does not fit in its %u bytes: no S3 resume\n",
			 (UINT32)S3_RECORD_MAX);
}
