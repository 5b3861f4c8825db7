/* Option ROMs (UEFI 2.10, 14.4.2): the expansion ROM BAR is sized with the other BARs and
 * placed in the 32-bit memory window, but decodes only while the ROM is copied to memory.
 * The copy becomes PciIo.RomImage; each EFI driver image in it for the firmware's own
 * machine (x64, or AArch64 on Arm: others are skipped quietly) is loaded with the
 * device path <function>/Offset(start,end), started, and published through the bus
 * specific driver override protocol so that ConnectController offers the function to it
 * before any generic driver. Images with CompressionType 1 are decompressed first. */
#define LOG_PREFIX "pci: "
#include <ember/core/core.h>
#include <ember/core/decompress.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/arch.h>
#include <ember/lib/guids.h>
#include <ember/lib/option_rom.h>
#include <ember/lib/str.h>
#include "pci_bus.h"

#define ROM_MAX_SIZE (16u << 20) /* bigger BARs are not ROMs worth copying */
#define SUBSYSTEM_BOOT_DRIVER 11
#define SUBSYSTEM_RUNTIME_DRIVER 12
#define COMPRESSION_NONE 0
#define COMPRESSION_UEFI 1 /* the UEFI compression algorithm (UEFI 2.10, chapter 19) */

void pci_rom_size(struct pci_function *f)
{
	UINT32 orig = pci_cfg_read32(f, PCI_EXPANSION_ROM_BASE_OFFSET), v, size;

	pci_cfg_write32(f, PCI_EXPANSION_ROM_BASE_OFFSET, PCI_EXPANSION_ROM_ADDRESS_MASK);
	v = pci_cfg_read32(f, PCI_EXPANSION_ROM_BASE_OFFSET) & PCI_EXPANSION_ROM_ADDRESS_MASK;
	pci_cfg_write32(f, PCI_EXPANSION_ROM_BASE_OFFSET, orig & ~PCI_EXPANSION_ROM_ENABLE);
	if (!v)
		return;
	size = ~v + 1;
	if (size & (size - 1) || size > ROM_MAX_SIZE)
		return;
	f->rom.offset = PCI_EXPANSION_ROM_BASE_OFFSET;
	f->rom.req.size = size;
	f->rom.req.align = size;
}

/* The ROM's address, with its decoding off until the copy. */
void pci_rom_program(struct pci_function *f)
{
	if (f->rom.offset)
		pci_cfg_write32(f, f->rom.offset,
				f->rom.req.assigned ? (UINT32)f->rom.req.base : 0);
}

/* The bytes the images cover, walking from the first; 0 when the first is not sound. */
static UINTN walked_size(const UINT8 *rom, UINTN size)
{
	struct option_rom_image img;
	UINTN pos = 0, end = 0;
	enum option_rom_result r;

	for (int n = 0; n < OPTION_ROM_MAX_IMAGES; n++) {
		r = option_rom_next(rom, size, &pos, &img);
		if (r != OPTION_ROM_IMAGE)
			break;
		end = img.offset + img.length;
	}
	return end;
}

void pci_rom_copy(struct pci_function *f)
{
	UINT32 size = (UINT32)f->rom.req.size;
	UINT16 cmd = pci_cfg_read16(f, PCI_COMMAND_OFFSET);
	UINT8 *buf;
	EFI_STATUS status;

	if (!f->rom.offset || !f->rom.req.assigned)
		return;
	buf = pool_alloc_typed(EfiBootServicesData, size);
	if (!buf) {
		log_debug("%02x:%02x.%x: no memory for the %u-byte ROM\n", f->bus, f->dev, f->fn,
			  size);
		return;
	}
	/* Decoding only while copying: the ROM may share its decoder with a BAR. */
	pci_cfg_write16(f, PCI_COMMAND_OFFSET, cmd | PCI_COMMAND_MEMORY_SPACE);
	pci_cfg_write32(f, f->rom.offset, (UINT32)f->rom.req.base | PCI_EXPANSION_ROM_ENABLE);
	status = f->root->Mem.Read(f->root, EfiPciWidthUint32, f->rom.req.base, size / 4, buf);
	pci_cfg_write32(f, f->rom.offset, (UINT32)f->rom.req.base);
	pci_cfg_write16(f, PCI_COMMAND_OFFSET, cmd);
	if (EFI_ERROR(status)) {
		log_debug("%02x:%02x.%x: reading the ROM: %r\n", f->bus, f->dev, f->fn, status);
		pool_free(buf);
		return;
	}
	f->io.RomSize = walked_size(buf, size);
	if (!f->io.RomSize) {
		log_debug("%02x:%02x.%x: no option ROM image in the ROM BAR\n", f->bus, f->dev,
			  f->fn);
		pool_free(buf);
		return;
	}
	f->io.RomImage = buf;
	log_debug("%02x:%02x.%x: option ROM of %llu bytes\n", f->bus, f->dev, f->fn,
		  (unsigned long long)f->io.RomSize);
}

/* A ROM may carry images for several machines (QEMU's are x64 only): those for another
 * processor are no error, and are not offered to the loader. */
static bool is_native_driver(const struct option_rom_image *img)
{
	return img->efi &&
	       (img->subsystem == SUBSYSTEM_BOOT_DRIVER ||
		img->subsystem == SUBSYSTEM_RUNTIME_DRIVER) &&
	       img->machine == ARCH_PE_MACHINE;
}

static EFI_STATUS EFIAPI override_get_driver(EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL *this,
					     EFI_HANDLE *driver_image)
{
	struct pci_function *f = container_of(this, struct pci_function, override);
	UINTN i = 0;

	if (!driver_image)
		return EFI_INVALID_PARAMETER;
	if (*driver_image) {
		while (i < f->rom_driver_count && f->rom_drivers[i] != *driver_image)
			i++;
		if (i == f->rom_driver_count)
			return EFI_INVALID_PARAMETER;
		i++;
	}
	if (i >= f->rom_driver_count)
		return EFI_NOT_FOUND;
	*driver_image = f->rom_drivers[i];
	return EFI_SUCCESS;
}

/* <function>/Offset(start,end) for the image at [offset, offset + length). */
static EFI_DEVICE_PATH_PROTOCOL *image_path(struct pci_function *f,
					    const struct option_rom_image *img)
{
	MEDIA_RELATIVE_OFFSET_RANGE_DEVICE_PATH node = {
	    {MEDIA_DEVICE_PATH, MEDIA_RELATIVE_OFFSET_RANGE_DP, {sizeof(node), 0}},
	    0,
	    img->offset,
	    img->offset + img->length - 1};

	return dp_append_node(f->device_path, &node.Header);
}

/* The PE image of a ROM image: in the ROM itself, or decompressed into a pool buffer that
 * *unpacked keeps for the caller to free. */
static EFI_STATUS pe_image(struct pci_function *f, const struct option_rom_image *img,
			   const void **pe, UINTN *size, void **unpacked)
{
	const UINT8 *in = (const UINT8 *)f->io.RomImage + img->efi_offset;
	EFI_STATUS status;

	*unpacked = NULL;
	if (img->compression == COMPRESSION_NONE) {
		*pe = in;
		*size = img->efi_length;
		return EFI_SUCCESS;
	}
	if (img->compression != COMPRESSION_UEFI) {
		log_warn("%02x:%02x.%x: option ROM image at 0x%llx has compression type %u: "
			 "not supported, skipped\n",
			 f->bus, f->dev, f->fn, (unsigned long long)img->offset, img->compression);
		return EFI_UNSUPPORTED;
	}
	status = core_decompress(in, img->efi_length, unpacked, size);
	if (EFI_ERROR(status)) {
		log_warn("%02x:%02x.%x: option ROM image at 0x%llx does not decompress: %r\n",
			 f->bus, f->dev, f->fn, (unsigned long long)img->offset, status);
		return status;
	}
	*pe = *unpacked;
	return EFI_SUCCESS;
}

/* Records a started driver in the function's list. */
static void add_driver(struct pci_function *f, EFI_HANDLE image)
{
	EFI_HANDLE *bigger = pool_alloc((f->rom_driver_count + 1) * sizeof(EFI_HANDLE));

	if (!bigger) {
		log_debug("no memory to record a ROM driver\n");
		return;
	}
	mem_copy(bigger, f->rom_drivers, f->rom_driver_count * sizeof(EFI_HANDLE));
	bigger[f->rom_driver_count++] = image;
	pool_free(f->rom_drivers);
	f->rom_drivers = bigger;
}

/* Loads and starts one driver image; its handle joins the function's list. */
static void start_one(EFI_HANDLE parent, struct pci_function *f, const struct option_rom_image *img)
{
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	EFI_HANDLE image = NULL;
	const char *reason = "";
	void *unpacked = NULL;
	const void *pe;
	UINTN size;
	EFI_STATUS status;

	if (EFI_ERROR(pe_image(f, img, &pe, &size, &unpacked)))
		return;
	path = image_path(f, img);
	if (!path) {
		log_debug("%02x:%02x.%x: no memory for the ROM image's path\n", f->bus, f->dev,
			  f->fn);
		goto out;
	}
	status = image_load(false, parent, path, pe, size, &image, &reason);
	if (EFI_ERROR(status)) {
		log_warn("%02x:%02x.%x: option ROM image at 0x%llx not loaded: %r (%s)\n", f->bus,
			 f->dev, f->fn, (unsigned long long)img->offset, status, reason);
		goto out;
	}
	status = image_start(image, NULL, NULL);
	if (EFI_ERROR(status)) {
		log_warn("%02x:%02x.%x: option ROM driver at 0x%llx failed to start: %r\n", f->bus,
			 f->dev, f->fn, (unsigned long long)img->offset, status);
		if (status == EFI_SECURITY_VIOLATION) /* deferred: never ran, still loaded */
			image_unload(image);
		goto out; /* one that failed its entry point was unloaded by StartImage */
	}
	add_driver(f, image);
	log_info("%02x:%02x.%x: started the option ROM's EFI driver (image at 0x%llx%s)\n", f->bus,
		 f->dev, f->fn, (unsigned long long)img->offset, unpacked ? ", decompressed" : "");
out:
	pool_free(path);
	pool_free(unpacked);
}

void pci_rom_start_drivers(EFI_HANDLE driver_image, struct pci_function *f)
{
	struct option_rom_image img;
	UINTN pos = 0;
	EFI_STATUS status;

	if (!f->io.RomImage)
		return;
	for (int n = 0; n < OPTION_ROM_MAX_IMAGES; n++) {
		if (option_rom_next(f->io.RomImage, f->io.RomSize, &pos, &img) != OPTION_ROM_IMAGE)
			break;
		if (!is_native_driver(&img))
			continue;
		start_one(driver_image, f, &img);
	}
	if (!f->rom_driver_count)
		return;
	f->override.GetDriver = override_get_driver;
	status = protocol_install(&f->handle, &efi_bus_specific_driver_override_protocol_guid,
				  &f->override);
	if (EFI_ERROR(status)) {
		log_debug("%02x:%02x.%x: installing the bus override: %r\n", f->bus, f->dev, f->fn,
			  status);
		f->override.GetDriver = NULL;
	}
}

void pci_rom_release(struct pci_function *f)
{
	if (f->override.GetDriver)
		protocol_uninstall(f->handle, &efi_bus_specific_driver_override_protocol_guid,
				   &f->override);
	f->override.GetDriver = NULL;
	pool_free(f->rom_drivers);
	f->rom_drivers = NULL;
	f->rom_driver_count = 0;
	pool_free(f->io.RomImage);
	f->io.RomImage = NULL;
	f->io.RomSize = 0;
}
