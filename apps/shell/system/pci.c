/* pci: lists PCI functions or shows one's configuration space (UEFI Shell 2.2, pci),
 * through EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL, or EFI_PCI_IO_PROTOCOL when the firmware
 * offers no root bridge protocol. */
#include "pci.h"
#include <efi/acpi_resource.h>
#include <ember/lib/guids.h>

EFI_STATUS pci_read_config(const struct pci_fn *f, UINT8 cfg[256])
{
	if (f->io)
		return f->io->Pci.Read(f->io, EfiPciIoWidthUint32, 0, 64, cfg);
	return f->rb->Pci.Read(f->rb, EfiPciWidthUint32, EFI_PCI_ADDRESS(f->bus, f->dev, f->fn, 0),
			       64, cfg);
}

static UINT32 read32(const struct pci_fn *f, UINT32 reg)
{
	UINT32 v = 0xffffffff;

	f->rb->Pci.Read(f->rb, EfiPciWidthUint32, EFI_PCI_ADDRESS(f->bus, f->dev, f->fn, reg), 1,
			&v);
	return v;
}

/* The buses behind a root bridge, from its Configuration() descriptors (all of them
 * when it says nothing). */
static void bus_range(EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb, UINT32 *first, UINT32 *last)
{
	UINT8 *p = NULL;

	*first = 0;
	*last = 255;
	if (EFI_ERROR(rb->Configuration(rb, (void **)&p)) || !p)
		return;
	for (int i = 0; i < 64 && *p == ACPI_ADDRESS_SPACE_DESCRIPTOR; i++) {
		EFI_ACPI_ADDRESS_SPACE_DESCRIPTOR d;
		mem_copy(&d, p, sizeof(d));
		if (d.ResType == ACPI_ADDRESS_SPACE_TYPE_BUS) {
			*first = (UINT32)MIN(d.AddrRangeMin, 255ULL);
			*last = d.AddrLen ? (UINT32)MIN(d.AddrRangeMin + d.AddrLen - 1, 255ULL)
					  : (UINT32)MIN(d.AddrRangeMax, 255ULL);
			return;
		}
		p += 3 + d.Len;
	}
}

static void print_entry(struct shell *sh, const struct pci_fn *f, const UINT8 cfg[256])
{
	char cls[96];

	pci_class_text(cls, sizeof(cls), cfg[11], cfg[10], cfg[9]);
	sh_print(sh, "    %02X   %02X   %02X    %02X ==> %s\n", (unsigned)f->seg, f->bus, f->dev,
		 f->fn, cls);
	sh_print(sh, "             Vendor %04X Device %04X Prog Interface %X\n",
		 cfg[0] | cfg[1] << 8, cfg[2] | cfg[3] << 8, cfg[9]);
}

static UINTN list_bridge(struct shell *sh, EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb)
{
	struct pci_fn f = {rb, NULL, rb->SegmentNumber, 0, 0, 0};
	UINT32 first, last;
	UINTN found = 0;

	bus_range(rb, &first, &last);
	for (UINT32 bus = first; bus <= last && !sh_interrupted(sh); bus++)
		for (UINT8 dev = 0; dev < 32; dev++)
			for (UINT8 fn = 0; fn < 8; fn++) {
				UINT8 cfg[256];
				f.bus = (UINT8)bus, f.dev = dev, f.fn = fn;
				if ((read32(&f, 0) & 0xffff) == 0xffff) {
					if (!fn)
						break; /* no device: no other functions */
					continue;
				}
				if (EFI_ERROR(pci_read_config(&f, cfg)))
					continue;
				print_entry(sh, &f, cfg);
				found++;
				if (!fn && !(cfg[14] & 0x80))
					break; /* single-function device */
			}
	return found;
}

/* Without root bridge protocols: the functions the PCI bus driver published. */
static UINTN list_pci_io(struct shell *sh)
{
	struct sys_handles l;
	UINTN found = 0;

	if (EFI_ERROR(sys_handles_locate(sh, &efi_pci_io_protocol_guid, &l)))
		return 0;
	for (UINTN i = 0; i < l.count && !sh_interrupted(sh); i++) {
		struct pci_fn f = {NULL, sys_protocol(l.h[i], &efi_pci_io_protocol_guid), 0, 0, 0,
				   0};
		UINTN seg, bus, dev, fn;
		UINT8 cfg[256];
		if (!f.io || EFI_ERROR(f.io->GetLocation(f.io, &seg, &bus, &dev, &fn)) ||
		    EFI_ERROR(pci_read_config(&f, cfg)))
			continue;
		f.seg = (UINT32)seg, f.bus = (UINT8)bus, f.dev = (UINT8)dev, f.fn = (UINT8)fn;
		print_entry(sh, &f, cfg);
		found++;
	}
	sys_handles_free(&l);
	return found;
}

static EFI_STATUS list(struct shell *sh)
{
	struct sys_handles l;
	UINTN found = 0;
	EFI_STATUS status = sys_handles_locate(sh, &efi_pci_root_bridge_io_protocol_guid, &l);

	if (EFI_ERROR(status))
		return status;
	sh_print(sh, "   Seg  Bus  Dev  Func\n   ---  ---  ---  ----\n");
	for (UINTN i = 0; i < l.count; i++)
		found +=
		    list_bridge(sh, sys_protocol(l.h[i], &efi_pci_root_bridge_io_protocol_guid));
	if (!l.count)
		found = list_pci_io(sh);
	sys_handles_free(&l);
	if (!found)
		sh_print(sh, "No PCI functions found.\n");
	return EFI_SUCCESS;
}

/* The function at seg/bus/dev/fn: a root bridge of that segment whose buses include it,
 * else a PciIo at that location. */
static bool find_fn(struct shell *sh, struct pci_fn *f)
{
	struct sys_handles l;
	bool found = false;

	if (!EFI_ERROR(sys_handles_locate(sh, &efi_pci_root_bridge_io_protocol_guid, &l))) {
		for (UINTN i = 0; i < l.count && !found; i++) {
			EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL *rb =
			    sys_protocol(l.h[i], &efi_pci_root_bridge_io_protocol_guid);
			UINT32 first, last;
			if (!rb || rb->SegmentNumber != f->seg)
				continue;
			bus_range(rb, &first, &last);
			f->rb = rb;
			found =
			    f->bus >= first && f->bus <= last && (read32(f, 0) & 0xffff) != 0xffff;
		}
		sys_handles_free(&l);
	}
	if (found || EFI_ERROR(sys_handles_locate(sh, &efi_pci_io_protocol_guid, &l)))
		return found;
	for (UINTN i = 0; i < l.count && !found; i++) {
		EFI_PCI_IO_PROTOCOL *io = sys_protocol(l.h[i], &efi_pci_io_protocol_guid);
		UINTN seg, bus, dev, fn;
		found = io && !EFI_ERROR(io->GetLocation(io, &seg, &bus, &dev, &fn)) &&
			seg == f->seg && bus == f->bus && dev == f->dev && fn == f->fn;
		if (found)
			f->io = io, f->rb = NULL;
	}
	sys_handles_free(&l);
	return found;
}

static bool parse_number(struct shell *sh, const CHAR16 *text, UINT64 max, const char *what,
			 UINT64 *out)
{
	if (sh_parse_u64(text, true, out) && *out <= max)
		return true;
	sh_error(sh, "pci: '%ls' is not a %s number (hex, at most %llX)\n", text, what,
		 (unsigned long long)max);
	return false;
}

static EFI_STATUS show(struct shell *sh, const struct sh_args *a)
{
	struct pci_fn f = {0};
	UINT64 bus, dev, fn = 0, seg = 0;
	const CHAR16 *s = sh_args_value(a, "-s");
	UINT8 cfg[256];

	if (!parse_number(sh, a->pos[0], 255, "bus", &bus) ||
	    !parse_number(sh, a->pos[1], 31, "device", &dev) ||
	    (a->count > 2 && !parse_number(sh, a->pos[2], 7, "function", &fn)) ||
	    (s && !parse_number(sh, s, 0xffff, "segment", &seg)))
		return EFI_INVALID_PARAMETER;
	f.seg = (UINT32)seg, f.bus = (UINT8)bus, f.dev = (UINT8)dev, f.fn = (UINT8)fn;
	if (!find_fn(sh, &f) || EFI_ERROR(pci_read_config(&f, cfg)) ||
	    (cfg[0] == 0xff && cfg[1] == 0xff)) {
		sh_error(sh,
			 "pci: there is no function at segment %X bus %X device %X function "
			 "%X\n",
			 (unsigned)seg, (unsigned)bus, (unsigned)dev, (unsigned)fn);
		return EFI_DEVICE_ERROR;
	}
	sh_print(sh, "  PCI Segment %02X Bus %02X Device %02X Func %02X [EFI %02X%02X%02X%02X00]\n",
		 (unsigned)seg, (unsigned)bus, (unsigned)dev, (unsigned)fn, (unsigned)seg & 0xff,
		 (unsigned)bus, (unsigned)dev, (unsigned)fn);
	sys_hexdump(sh, 2, 0, cfg, 256);
	if (sh_args_has(a, "-i"))
		pci_interpret(sh, cfg);
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_pci(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-s", SH_OPT_VALUE}, {"-i", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (a.count == 1 || a.count > 3) {
		sh_error(sh, "pci: give a bus and a device (and a function), or nothing\n");
		return EFI_INVALID_PARAMETER;
	}
	if (!a.count)
		return list(sh);
	return show(sh, &a);
}

SH_COMMAND(pci, "pci", "Lists PCI functions or shows one's configuration space",
	   "pci [bus dev [func] [-s seg] [-i]]\n"
	   "  Without arguments, lists every PCI function: segment, bus, device, function,\n"
	   "  its class in words, vendor and device IDs and programming interface.\n"
	   "  With a bus and device (and function, 0 if absent), all hex, dumps the first\n"
	   "  256 bytes of its configuration space.\n"
	   "  -s seg  the PCI segment (default 0)\n"
	   "  -i      also explains the header: IDs, command and status, class, BARs,\n"
	   "          bridge windows, interrupt, and the list of capabilities\n"
	   "  Examples:\n"
	   "    pci\n"
	   "    pci 00 1F 02 -i\n",
	   cmd_pci);
