/* The System information page: firmware, UEFI revision, memory, processors, devices, and
 * one line per PCI function (up to a screenful or two). */
#include "settings.h"
#include "setup.h"

#define PCI_LINES 24

static void line(struct setup_build *b, const char *fmt, ...)
{
	char text[100];
	va_list ap;

	va_start(ap, fmt);
	format_vsn(text, sizeof(text), fmt, ap);
	va_end(ap);
	ifrb_text(&b->ifr, setup_str(b, text), setup_str(b, ""), 0);
}

struct pci_lines {
	struct setup_build *b;
	UINTN shown;
};

static void pci_line(void *ctx, UINTN segment, UINTN bus, UINTN device, UINTN function,
		     UINT16 vendor, UINT16 device_id)
{
	struct pci_lines *p = ctx;

	if (p->shown++ < PCI_LINES)
		line(p->b, "PCI %04x:%02x:%02x.%x  %04x:%04x", (unsigned)segment, (unsigned)bus,
		     (unsigned)device, (unsigned)function, vendor, device_id);
}

static void sysinfo_build(struct setup_build *b)
{
	struct settings_sysinfo info;
	struct pci_lines pci = {b, 0};

	settings_sysinfo_read(&info);
	ifrb_form(&b->ifr, SETUP_FORM_SYSTEM_INFO, setup_str(b, "System information"));
	line(b, "Firmware: %ls, revision 0x%08x", info.vendor, info.revision);
	line(b, "UEFI %u.%u", info.uefi_revision >> 16, (info.uefi_revision & 0xffff) / 10);
	line(b, "Memory: %llu MiB", (unsigned long long)(info.memory_bytes >> 20));
	if (info.cpus)
		line(b, "Processors: %u (%u enabled)", (unsigned)info.cpus,
		     (unsigned)info.cpus_enabled);
	else
		line(b, "Processors: not reported (no MP Services)");
	line(b, "Devices: %u PCI functions, %u handles with a device path",
	     (unsigned)info.pci_devices, (unsigned)info.device_paths);
	settings_pci_each(pci_line, &pci);
	ifrb_end(&b->ifr);
}

SETUP_PAGE(system_info, .form = SETUP_FORM_SYSTEM_INFO, .rank = 700, .title = "System information",
	   .help = "Firmware, memory, processors, devices", .build = sysinfo_build);
