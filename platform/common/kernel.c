/* QEMU's -kernel/-initrd/-append on both QEMU platforms, booted the way OVMF and AAVMF do:
 * the kernel fw_cfg hands out is a PE/COFF image with the EFI stub, started with the command
 * line as its LoadOptions; the initrd is offered through EFI_LOAD_FILE2_PROTOCOL on the Linux
 * initrd media device path, where the stub asks first. On x86-64 QEMU splits a bzImage into
 * a setup half (FW_CFG_SETUP_*) and the rest, joined back here; on Arm there is no setup
 * half (FW_CFG_SETUP_SIZE reads 0) and QEMU has already inflated a gzip'd Image. */
#define LOG_PREFIX "kernel: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/measure_boot.h>
#include <ember/lib/str.h>
#include <efi/protocol/load_file.h>
#include <ember/lib/guids.h>
#include "fw_cfg.h"
#include "kernel.h"

#define WATCHDOG_SECONDS 300 /* the spec's five minutes, as for a boot option */

#define LINUX_EFI_INITRD_MEDIA_GUID                                                                \
	EFI_GUID_INIT(0x5568e427, 0x68fc, 0x4f3d, 0xac, 0x74, 0xca, 0x55, 0x52, 0x31, 0xcc, 0x68)

static struct {
	VENDOR_DEVICE_PATH vendor;
	EFI_DEVICE_PATH_PROTOCOL end;
} __attribute__((packed)) initrd_path = {
    {{MEDIA_DEVICE_PATH, MEDIA_VENDOR_DP, {sizeof(VENDOR_DEVICE_PATH), 0}},
     LINUX_EFI_INITRD_MEDIA_GUID},
    {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}},
};

static uint32_t initrd_size;

/* The initrd is read from fw_cfg straight into the caller's buffer. */
static EFI_STATUS EFIAPI initrd_load_file(EFI_LOAD_FILE_PROTOCOL *this,
					  EFI_DEVICE_PATH_PROTOCOL *path, BOOLEAN boot_policy,
					  UINTN *size, VOID *buffer)
{
	if (!this || !path || !size)
		return EFI_INVALID_PARAMETER;
	if (boot_policy)
		return EFI_UNSUPPORTED; /* LoadFile2 never serves boot-policy loads */
	if (path->Type != END_DEVICE_PATH_TYPE)
		return EFI_NOT_FOUND;
	if (!buffer || *size < initrd_size) {
		*size = initrd_size;
		return EFI_BUFFER_TOO_SMALL;
	}
	fw_cfg_read(FW_CFG_INITRD_DATA, buffer, initrd_size);
	*size = initrd_size;
	return EFI_SUCCESS;
}

static EFI_LOAD_FILE_PROTOCOL initrd_load_file2 = {initrd_load_file};

static void publish_initrd(void)
{
	EFI_HANDLE handle = NULL;
	EFI_STATUS status;

	initrd_size = fw_cfg_read32(FW_CFG_INITRD_SIZE);
	if (!initrd_size)
		return;
	status = protocol_install_multiple(&handle, &efi_device_path_protocol_guid, &initrd_path,
					   &efi_load_file2_protocol_guid, &initrd_load_file2, NULL);
	if (EFI_ERROR(status))
		log_warn("cannot offer the initrd: %r\n", status);
}

/* The command line from -append as the image's LoadOptions. */
static void set_command_line(EFI_HANDLE image)
{
	uint32_t size = fw_cfg_read32(FW_CFG_CMDLINE_SIZE);
	EFI_LOADED_IMAGE_PROTOCOL *li;
	char *text;
	CHAR16 *units;

	if (!size || EFI_ERROR(protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&li)))
		return;
	text = pool_alloc((UINTN)size + 1); /* UINTN: a size of 2^32 - 1 must not wrap */
	units = pool_alloc_typed(EfiLoaderData, ((UINTN)size + 1) * sizeof(CHAR16));
	if (text && units) {
		fw_cfg_read(FW_CFG_CMDLINE_DATA, text, size);
		text[size] = 0;
		li->LoadOptionsSize =
		    (UINT32)((utf8_to_ucs2(units, (UINTN)size + 1, text, str8_len(text)) + 1) * 2);
		li->LoadOptions = units;
	} else {
		log_debug("no memory for a command line of %u bytes\n", size);
		pool_free(units);
	}
	pool_free(text);
}

/* Loads the -kernel image; NULL when there is none (or it cannot load, said on the console). */
static EFI_HANDLE kernel_load(void)
{
	uint32_t setup_size = fw_cfg_read32(FW_CFG_SETUP_SIZE);
	uint32_t kernel_size = fw_cfg_read32(FW_CFG_KERNEL_SIZE);
	const char *reason = NULL;
	EFI_HANDLE image = NULL;
	uint8_t *file;
	EFI_STATUS status;

	if (!kernel_size)
		return NULL;
	file = pool_alloc_typed(EfiBootServicesData, (UINTN)setup_size + kernel_size);
	if (!file) {
		log_debug("no memory for a kernel of %llu bytes\n",
			  (unsigned long long)setup_size + kernel_size);
		return NULL;
	}
	if (setup_size)
		fw_cfg_read(FW_CFG_SETUP_DATA, file, setup_size);
	fw_cfg_read(FW_CFG_KERNEL_DATA, file + setup_size, kernel_size);
	/* A boot attempt as a boot option's is: the separators precede the kernel's measure. */
	measure_boot_attempt();
	status = image_load(false, core_image_handle, NULL, file, (UINTN)setup_size + kernel_size,
			    &image, &reason);
	pool_free(file);
	if (EFI_ERROR(status)) {
		panic_printf("Ember: -kernel: %s (an EFI-stub kernel is needed)\n",
			     reason ? reason : "cannot load it");
		return NULL;
	}
	image_set_name(image, "kernel");
	set_command_line(image);
	publish_initrd();
	return image;
}

void kernel_boot(void)
{
	EFI_HANDLE kernel = kernel_load();
	EFI_STATUS status;

	if (!kernel)
		return;
	log_info("starting -kernel\n");
	core_watchdog_set(WATCHDOG_SECONDS);
	status = image_start(kernel, NULL, NULL);
	core_watchdog_set(0);
	log_info("-kernel returned %r\n", status);
}
