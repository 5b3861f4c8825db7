/* PCI configuration space in words (PCI Local Bus 3.0 chapter 6, PCI-to-PCI Bridge 1.2
 * chapter 3, PCI Code and ID Assignment 1.x for the class codes). */
#include "pci.h"

static const char *const base_classes[] = {"Old Device",
					   "Mass Storage Controller",
					   "Network Controller",
					   "Display Controller",
					   "Multimedia Device",
					   "Memory Controller",
					   "Bridge Device",
					   "Simple Communications",
					   "Base System Peripheral",
					   "Input Device",
					   "Docking Station",
					   "Processor",
					   "Serial Bus Controller",
					   "Wireless Controller",
					   "Intelligent I/O Controller",
					   "Satellite Communications",
					   "Encryption/Decryption",
					   "Signal Processing Controller",
					   "Processing Accelerator",
					   "Non-Essential Instrumentation"};

struct sub_class {
	UINT8 base, sub;
	INT16 pi; /* -1: any */
	const char *name;
};

static const struct sub_class sub_classes[] = {
    {0x01, 0x00, -1, "SCSI controller"},
    {0x01, 0x01, -1, "IDE controller"},
    {0x01, 0x02, -1, "Floppy controller"},
    {0x01, 0x04, -1, "RAID controller"},
    {0x01, 0x05, -1, "ATA controller"},
    {0x01, 0x06, 0x01, "SATA controller (AHCI)"},
    {0x01, 0x06, -1, "SATA controller"},
    {0x01, 0x07, -1, "SAS controller"},
    {0x01, 0x08, 0x02, "NVM controller (NVMe)"},
    {0x01, 0x08, -1, "NVM controller"},
    {0x02, 0x00, -1, "Ethernet controller"},
    {0x03, 0x00, -1, "VGA-compatible controller"},
    {0x03, 0x01, -1, "XGA controller"},
    {0x03, 0x02, -1, "3D controller"},
    {0x04, 0x00, -1, "Video device"},
    {0x04, 0x01, -1, "Audio device"},
    {0x04, 0x03, -1, "HD Audio device"},
    {0x05, 0x00, -1, "RAM"},
    {0x05, 0x01, -1, "Flash"},
    {0x06, 0x00, -1, "Host/PCI bridge"},
    {0x06, 0x01, -1, "PCI/ISA bridge"},
    {0x06, 0x02, -1, "PCI/EISA bridge"},
    {0x06, 0x04, -1, "PCI/PCI bridge"},
    {0x06, 0x07, -1, "CardBus bridge"},
    {0x06, 0x09, -1, "Semi-transparent PCI/PCI bridge"},
    {0x07, 0x00, 0x02, "Serial controller (16550)"},
    {0x07, 0x00, -1, "Serial controller"},
    {0x07, 0x01, -1, "Parallel port"},
    {0x08, 0x00, -1, "Interrupt controller"},
    {0x08, 0x01, -1, "DMA controller"},
    {0x08, 0x02, -1, "Timer"},
    {0x08, 0x03, -1, "RTC controller"},
    {0x08, 0x05, -1, "SD host controller"},
    {0x08, 0x06, -1, "IOMMU"},
    {0x09, 0x00, -1, "Keyboard controller"},
    {0x09, 0x02, -1, "Mouse controller"},
    {0x0c, 0x00, -1, "FireWire controller"},
    {0x0c, 0x03, 0x00, "USB UHCI controller"},
    {0x0c, 0x03, 0x10, "USB OHCI controller"},
    {0x0c, 0x03, 0x20, "USB EHCI controller"},
    {0x0c, 0x03, 0x30, "USB xHCI controller"},
    {0x0c, 0x03, -1, "USB controller"},
    {0x0c, 0x05, -1, "SMBus controller"},
};

void pci_class_text(char *buf, UINTN size, UINT8 base, UINT8 sub, UINT8 pi)
{
	const char *b = base < ARRAY_SIZE(base_classes) ? base_classes[base]
			: base == 0xff			? "Unassigned Class"
							: "Reserved Class";
	const char *s = sub == 0x80 ? "Other" : NULL;

	for (size_t i = 0; i < ARRAY_SIZE(sub_classes) && !s; i++)
		if (sub_classes[i].base == base && sub_classes[i].sub == sub &&
		    (sub_classes[i].pi < 0 || sub_classes[i].pi == pi))
			s = sub_classes[i].name;
	if (s)
		format_sn(buf, size, "%s - %s", b, s);
	else
		format_sn(buf, size, "%s - subclass %02X", b, sub);
}

static UINT16 get16(const UINT8 *cfg, UINTN off)
{
	return (UINT16)(cfg[off] | cfg[off + 1] << 8);
}

static UINT32 get32(const UINT8 *cfg, UINTN off)
{
	return (UINT32)get16(cfg, off) | (UINT32)get16(cfg, off + 2) << 16;
}

/* The BARs of a header: their registers' decoding (sizes need writes: not done here). */
static void print_bars(struct shell *sh, const UINT8 *cfg, UINTN count)
{
	sh_print(sh, "Base Address Registers:\n");
	for (UINTN i = 0; i < count; i++) {
		UINT32 bar = get32(cfg, 0x10 + 4 * i);
		if (!bar) {
			sh_print(sh, "  BAR%u  (none)\n", (unsigned)i);
			continue;
		}
		if (bar & 1) {
			sh_print(sh, "  BAR%u  I/O     %08X\n", (unsigned)i, bar & ~3u);
			continue;
		}
		if (((bar >> 1) & 3) == 2 && i + 1 < count) {
			UINT64 addr = (UINT64)get32(cfg, 0x14 + 4 * i) << 32 | (bar & ~15u);
			sh_print(sh, "  BAR%u  Mem64   %016llX%s\n", (unsigned)i,
				 (unsigned long long)addr, bar & 8 ? " prefetchable" : "");
			i++;
			continue;
		}
		sh_print(sh, "  BAR%u  Mem32   %08X%s\n", (unsigned)i, bar & ~15u,
			 bar & 8 ? " prefetchable" : "");
	}
}

static void print_device_header(struct shell *sh, const UINT8 *cfg)
{
	print_bars(sh, cfg, 6);
	sh_print(sh, "Subsystem Vendor ID (2C): %04X    Subsystem ID (2E): %04X\n",
		 get16(cfg, 0x2c), get16(cfg, 0x2e));
	sh_print(sh, "Expansion ROM (30):       %08X%s\n", get32(cfg, 0x30),
		 get32(cfg, 0x30) & 1 ? " enabled" : "");
	sh_print(sh, "Min_Gnt (3E): %02X    Max_Lat (3F): %02X\n", cfg[0x3e], cfg[0x3f]);
}

static void print_bridge_header(struct shell *sh, const UINT8 *cfg)
{
	UINT32 io_base = (cfg[0x1c] & 0xf0u) << 8 | (UINT32)get16(cfg, 0x30) << 16;
	UINT32 io_limit = ((cfg[0x1d] & 0xf0u) << 8 | 0xfff) | (UINT32)get16(cfg, 0x32) << 16;
	UINT64 pf_base = (UINT64)(get16(cfg, 0x24) & 0xfff0) << 16 | (UINT64)get32(cfg, 0x28) << 32;
	UINT64 pf_limit =
	    ((UINT64)(get16(cfg, 0x26) & 0xfff0) << 16 | 0xfffff) | (UINT64)get32(cfg, 0x2c) << 32;

	print_bars(sh, cfg, 2);
	sh_print(sh, "Bus Numbers: primary %02X, secondary %02X, subordinate %02X\n", cfg[0x18],
		 cfg[0x19], cfg[0x1a]);
	sh_print(sh, "I/O window:          %08X-%08X\n", io_base, io_limit);
	sh_print(sh, "Memory window:       %08X-%08X\n", (get16(cfg, 0x20) & 0xfff0u) << 16,
		 (get16(cfg, 0x22) & 0xfff0u) << 16 | 0xfffff);
	sh_print(sh, "Prefetchable window: %016llX-%016llX\n", (unsigned long long)pf_base,
		 (unsigned long long)pf_limit);
	sh_print(sh, "Secondary Status (1E): %04X    Bridge Control (3E): %04X\n", get16(cfg, 0x1e),
		 get16(cfg, 0x3e));
}

static const char *capability_name(UINT8 id)
{
	static const char *const names[] = {"Null",
					    "Power Management",
					    "AGP",
					    "VPD",
					    "Slot ID",
					    "MSI",
					    "CompactPCI Hot Swap",
					    "PCI-X",
					    "HyperTransport",
					    "Vendor Specific",
					    "Debug Port",
					    "CompactPCI Control",
					    "PCI Hot-Plug",
					    "Bridge Subsystem Vendor ID",
					    "AGP 8x",
					    "Secure Device",
					    "PCI Express",
					    "MSI-X",
					    "SATA",
					    "Advanced Features"};

	return id < ARRAY_SIZE(names) ? names[id] : "Unknown";
}

static void print_capabilities(struct shell *sh, const UINT8 *cfg)
{
	UINT8 at = cfg[0x34] & 0xfc;

	if (!(get16(cfg, 6) & 0x10) || !at)
		return;
	sh_print(sh, "Capabilities:\n");
	for (int n = 0; at >= 0x40 && n < 48; n++) {
		sh_print(sh, "  %02X: %02X %s\n", at, cfg[at], capability_name(cfg[at]));
		at = cfg[at + 1] & 0xfc;
	}
}

void pci_interpret(struct shell *sh, const UINT8 cfg[256])
{
	static const char *const kinds[] = {"PCI device", "PCI-to-PCI bridge", "CardBus bridge"};
	char cls[96];
	UINT8 type = cfg[0x0e] & 0x7f;

	pci_class_text(cls, sizeof(cls), cfg[0x0b], cfg[0x0a], cfg[0x09]);
	sh_print(sh, "Vendor ID (0): %04X    Device ID (2): %04X\n", get16(cfg, 0), get16(cfg, 2));
	sh_print(sh, "Command (4): %04X%s%s%s\n", get16(cfg, 4), get16(cfg, 4) & 1 ? " I/O" : "",
		 get16(cfg, 4) & 2 ? " memory" : "", get16(cfg, 4) & 4 ? " bus-master" : "");
	sh_print(sh, "Status (6): %04X\n", get16(cfg, 6));
	sh_print(sh, "Revision ID (8): %02X    Class (9): %02X%02X%02X %s\n", cfg[8], cfg[0x0b],
		 cfg[0x0a], cfg[0x09], cls);
	sh_print(sh, "Cache Line Size (C): %02X    Latency Timer (D): %02X\n", cfg[0x0c],
		 cfg[0x0d]);
	sh_print(sh, "Header Type (E): %02X, %s, %s\n", cfg[0x0e],
		 cfg[0x0e] & 0x80 ? "multi-function" : "single function",
		 type < 3 ? kinds[type] : "reserved");
	sh_print(sh, "BIST (F): %02X\n", cfg[0x0f]);
	if (type == 0)
		print_device_header(sh, cfg);
	else if (type == 1)
		print_bridge_header(sh, cfg);
	sh_print(sh, "Interrupt Line (3C): %02X    Interrupt Pin (3D): %02X\n", cfg[0x3c],
		 cfg[0x3d]);
	print_capabilities(sh, cfg);
}
