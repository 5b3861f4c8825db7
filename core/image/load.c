/* LoadImage (UEFI 2.10, section 7.4): a PE32+ image from a buffer or a device path, placed
 * in pages of the type its subsystem calls for and published with
 * EFI_LOADED_IMAGE_PROTOCOL and EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL. */
#define LOG_PREFIX "image: "
#include "image.h"
#include <ember/core/hii_packages.h>
#include "../services.h"
#include <ember/core/devpath.h>
#include <ember/core/fv.h>
#include <ember/lib/format.h>
#include <ember/core/log.h>
#include <ember/drivers/measure_boot.h>
#include <ember/lib/str.h>
#include <efi/protocol/load_file.h>
#include <efi/protocol/security.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/lib/guids.h>

struct list image_list = LIST_INIT(image_list);

struct image *image_lookup(EFI_HANDLE handle)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	struct image *img;

	if (!handle_is_valid(handle) ||
	    EFI_ERROR(protocol_get(handle, &efi_loaded_image_protocol_guid, (void **)&li)) || !li)
		return NULL;
	img = container_of(li, struct image, loaded);
	if (!mem_is_allocated(img, sizeof(*img)) || img->signature != IMAGE_SIGNATURE ||
	    img->handle != handle)
		return NULL;
	return img;
}

/* The memory types for the image's subsystem: pe_parse admits only the three EFI ones. */
static void memory_types_for(UINT16 subsystem, EFI_MEMORY_TYPE *code, EFI_MEMORY_TYPE *data)
{
	switch (subsystem) {
	case EFI_IMAGE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER:
		*code = EfiBootServicesCode, *data = EfiBootServicesData;
		break;
	case EFI_IMAGE_SUBSYSTEM_EFI_RUNTIME_DRIVER:
		*code = EfiRuntimeServicesCode, *data = EfiRuntimeServicesData;
		break;
	default: /* EFI_IMAGE_SUBSYSTEM_EFI_APPLICATION */
		*code = EfiLoaderCode, *data = EfiLoaderData;
		break;
	}
}

/* Places the image in memory: at its preferred base if it cannot move, anywhere if it can. */
static EFI_STATUS place_image(struct image *img, const void *file, UINTN size, const char **reason)
{
	UINT64 align = MAX(img->pe.section_alignment, (UINT32)EFI_PAGE_SIZE);
	EFI_ALLOCATE_TYPE where = AllocateAnyPages;
	EFI_STATUS status;

	img->pages = EFI_SIZE_TO_PAGES((UINT64)img->pe.size_of_image);
	img->pages_base = 0;
	if (img->pe.relocs_stripped) {
		where = AllocateAddress;
		img->pages_base = img->pe.image_base;
	}
	status = mem_allocate_aligned(where, img->loaded.ImageCodeType, img->pages, align,
				      &img->pages_base);
	if (EFI_ERROR(status)) {
		log_debug("allocating %llu pages%s: %r\n", (unsigned long long)img->pages,
			  img->pe.relocs_stripped ? " at its fixed base" : "", status);
		*reason = img->pe.relocs_stripped ? "its fixed base address is not free memory"
						  : "not enough memory for the image";
		return status == EFI_NOT_FOUND ? EFI_LOAD_ERROR : EFI_OUT_OF_RESOURCES;
	}
	status = pe_load(file, size, &img->pe, (void *)(uintptr_t)img->pages_base, img->pages_base,
			 reason);
	if (EFI_ERROR(status)) { /* pe_load said why */
		mem_free_pages(img->pages_base, img->pages);
		img->pages = 0;
	}
	return status;
}

/* The last component of a FilePath node's name, cut to fit out ("" if it has none). */
static void last_component(const EFI_DEVICE_PATH_PROTOCOL *node, CHAR16 *out, UINTN units)
{
	const UINT8 *p = (const UINT8 *)node + sizeof(*node);
	UINTN len = (dp_node_length(node) - sizeof(*node)) / sizeof(CHAR16), start = 0, n = 0;

	for (UINTN i = 0; i < len; i++) {
		CHAR16 c = (CHAR16)(p[2 * i] | p[2 * i + 1] << 8);
		if (!c)
			len = i;
		else if (c == '\\')
			start = i + 1;
	}
	for (UINTN i = start; i < len && n + 1 < units; i++)
		out[n++] = (CHAR16)(p[2 * i] | p[2 * i + 1] << 8);
	out[n] = 0;
}

/* The default name: the last component of the file path (which may be split over several
 * nodes), else the PDB name, else the address. */
static void name_image(struct image *img, const EFI_DEVICE_PATH_PROTOCOL *file_path)
{
	const char *pdb = pe_debug_name((void *)(uintptr_t)img->pages_base, img->pe.size_of_image);
	const EFI_DEVICE_PATH_PROTOCOL *node = file_path;
	const char *base = pdb;
	CHAR16 name[64] = {0};

	for (const char *p = pdb; p && *p; p++)
		if (*p == '/' || *p == '\\')
			base = p + 1;
	for (; node && !dp_is_end(node); node = dp_next(node)) {
		CHAR16 part[64];
		if (node->Type != MEDIA_DEVICE_PATH || node->SubType != MEDIA_FILEPATH_DP)
			continue;
		last_component(node, part, ARRAY_SIZE(part));
		if (part[0])
			mem_copy(name, part, sizeof(part));
	}
	if (name[0])
		format_sn(img->name, sizeof(img->name), "%ls", name);
	else if (base && *base)
		format_sn(img->name, sizeof(img->name), "%s", base);
	else
		format_sn(img->name, sizeof(img->name), "image@%llx",
			  (unsigned long long)img->pages_base);
}

void image_set_name(EFI_HANDLE handle, const char *name)
{
	struct image *img = image_lookup(handle);

	if (!img)
		return;
	format_sn(img->name, sizeof(img->name), "%s", name);
	image_debug_renamed(img);
}

/* An image with an HII resource gets EFI_HII_PACKAGE_LIST_PROTOCOL on its handle (UEFI
 * 2.10, 7.4 LoadImage), for it to hand to NewPackageList; a list the HII checks refuse is
 * not published (NewPackageList would refuse it anyway). */
static void publish_hii_packages(struct image *img)
{
	UINT32 rva, size;
	const char *problem;
	void *list;

	if (!pe_hii_resource(img->loaded.ImageBase, img->pe.size_of_image, &rva, &size))
		return;
	list = (UINT8 *)img->loaded.ImageBase + rva;
	problem = hii_package_list_check(list, size);
	if (problem) {
		log_debug("%s: HII resource refused: %s\n", img->name, problem);
		return;
	}
	if (EFI_ERROR(protocol_install(&img->handle, &efi_hii_package_list_protocol_guid, list)))
		return;
	img->hii_packages = list;
}

static EFI_STATUS publish_image(struct image *img)
{
	EFI_STATUS status;

	img->handle = NULL;
	status = protocol_install_multiple(
	    &img->handle, &efi_loaded_image_protocol_guid, &img->loaded,
	    &efi_loaded_image_device_path_protocol_guid, img->device_path, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing %s's LoadedImage: %r\n", img->name, status);
		return status;
	}
	list_add_tail(&img->link, &image_list);
	image_debug_add(img);
	publish_hii_packages(img);
	return EFI_SUCCESS;
}

/* Finds which device a path names, when the image came in a buffer. */
static void locate_device(EFI_DEVICE_PATH_PROTOCOL *path, EFI_HANDLE *device,
			  EFI_DEVICE_PATH_PROTOCOL **file_path)
{
	static const EFI_GUID by_preference[] = {
	    EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID, EFI_LOAD_FILE2_PROTOCOL_GUID,
	    EFI_LOAD_FILE_PROTOCOL_GUID, EFI_DEVICE_PATH_PROTOCOL_GUID};

	*device = NULL;
	*file_path = path;
	for (size_t i = 0; path && i < ARRAY_SIZE(by_preference); i++) {
		EFI_DEVICE_PATH_PROTOCOL *rest = path;
		if (!EFI_ERROR(handle_locate_device_path(&by_preference[i], &rest, device))) {
			*file_path = rest;
			return;
		}
	}
}

static EFI_STATUS load_parsed(struct image *img, const void *file, UINTN size, EFI_HANDLE parent,
			      EFI_HANDLE device, EFI_DEVICE_PATH_PROTOCOL *path,
			      EFI_DEVICE_PATH_PROTOCOL *file_path, const char **reason)
{
	EFI_MEMORY_TYPE code, data;
	EFI_STATUS status = pe_parse(file, size, &img->pe, reason);

	if (EFI_ERROR(status))
		return status; /* pe_parse said why */
	memory_types_for(img->pe.subsystem, &code, &data);
	img->loaded = (EFI_LOADED_IMAGE_PROTOCOL){
	    .Revision = EFI_LOADED_IMAGE_PROTOCOL_REVISION,
	    .ParentHandle = parent,
	    .SystemTable = core_st,
	    .DeviceHandle = device,
	    .ImageCodeType = code,
	    .ImageDataType = data,
	};
	status = place_image(img, file, size, reason);
	if (EFI_ERROR(status))
		return status; /* place_image said why */
	img->loaded.ImageBase = (void *)(uintptr_t)img->pages_base;
	img->loaded.ImageSize = img->pe.size_of_image;
	img->entry = (EFI_IMAGE_ENTRY_POINT)(uintptr_t)(img->pages_base + img->pe.entry_point_rva);
	if ((file_path && !(img->loaded.FilePath = dp_dup(file_path))) ||
	    (path && !(img->device_path = dp_dup(path)))) {
		log_debug("no memory for the image's device paths\n");
		return EFI_OUT_OF_RESOURCES;
	}
	name_image(img, file_path);
	image_protect(img);
	return EFI_SUCCESS;
}

/* Asks the security architectural protocols installed now whether the file may be used
 * (PI 1.8 volume 2, 12.8, 12.9): looked up on every call, since a loader (shim,
 * systemd-stub) may have reinstalled them or hooked their functions. Security2 sees the
 * bytes; without it, the older protocol judges the path alone. */
static EFI_STATUS authenticate(EFI_DEVICE_PATH_PROTOCOL *path, const void *file, UINTN size,
			       bool boot_policy)
{
	EFI_SECURITY2_ARCH_PROTOCOL *security2;
	EFI_SECURITY_ARCH_PROTOCOL *security;

	if (!EFI_ERROR(protocol_locate(&efi_security2_arch_protocol_guid, (void **)&security2)) &&
	    security2)
		return security2->FileAuthentication(security2, path, (void *)file, size,
						     boot_policy);
	if (!EFI_ERROR(protocol_locate(&efi_security_arch_protocol_guid, (void **)&security)) &&
	    security)
		return security->FileAuthenticationState(security, 0, path);
	return EFI_SUCCESS;
}

/* LoadImage's work; verify: whether the security protocols judge the image (not for
 * images built into the firmware). */
static EFI_STATUS load_image(bool verify, bool boot_policy, EFI_HANDLE parent,
			     EFI_DEVICE_PATH_PROTOCOL *path, const void *buffer, UINTN size,
			     EFI_HANDLE *handle, const char **reason)
{
	EFI_STATUS verdict = EFI_SUCCESS;
	bool from_volume = false;
	const char *why = NULL;
	void *file = (void *)buffer;
	EFI_HANDLE device = NULL;
	EFI_DEVICE_PATH_PROTOCOL *file_path = NULL;
	struct image *img;
	EFI_STATUS status;

	if (!buffer) {
		status = image_read_file(boot_policy, path, &file, &size, &device, &file_path);
		if (EFI_ERROR(status)) { /* image_read_file said why */
			why = "the file could not be read";
			goto out;
		}
		/* Read from the firmware's own volume: platform code (core/fv/measure.c). */
		from_volume = fv_handle_is_platform(device);
		if (from_volume)
			verify = false;
	} else {
		locate_device(path, &device, &file_path);
	}
	if (verify)
		verdict = authenticate(path, file, size, boot_policy);
	if (EFI_ERROR(verdict) && verdict != EFI_SECURITY_VIOLATION) {
		/* Refused for good: no handle (the policy logged why). */
		why = "refused by the security policy (Secure Boot)";
		status = EFI_ACCESS_DENIED;
		goto out;
	}
	img = pool_alloc(sizeof(*img));
	if (!img) {
		log_debug("no memory for the image record\n");
		status = EFI_OUT_OF_RESOURCES;
		goto out;
	}
	img->signature = IMAGE_SIGNATURE;
	status = load_parsed(img, file, size, parent, device, path, file_path, &why);
	if (!EFI_ERROR(status))
		status = publish_image(img);
	if (EFI_ERROR(status)) {
		/* The reason may live in the image record: keep a copy that outlives it. */
		static char reason_copy[PE_REASON_TEXT_SIZE + 16];
		if (why) {
			format_sn(reason_copy, sizeof(reason_copy), "%s", why);
			why = reason_copy;
		}
		if (img->pages)
			mem_free_pages(img->pages_base, img->pages);
		pool_free(img->loaded.FilePath);
		pool_free(img->device_path);
		pool_free(img);
	} else {
		/* Loaded, but the policy says it must not run (StartImage refuses it). */
		img->deferred = verdict == EFI_SECURITY_VIOLATION;
		img->outside = verify;
		/* Measured boot: what comes from outside the firmware is measured before it
		 * can run (PFP 1.05 3.3.4.3, 3.3.4.5). */
		if (verify && !img->deferred)
			measure_image(file, size, img->pe.subsystem, img->pages_base,
				      img->pe.size_of_image, img->pe.image_base, path);
		else if (from_volume)
			fv_measure_image(file, size, img->pe.subsystem, img->pages_base,
					 img->pe.size_of_image, img->pe.image_base, path);
		status = verdict;
		*handle = img->handle;
		log_debug("loaded %s at 0x%llx (entry +0x%x)\n", img->name,
			  (unsigned long long)img->pages_base, img->pe.entry_point_rva);
	}
out:
	if (file != buffer)
		pool_free(file);
	if (reason)
		*reason = why;
	return status;
}

EFI_STATUS image_load(bool boot_policy, EFI_HANDLE parent, EFI_DEVICE_PATH_PROTOCOL *path,
		      const void *buffer, UINTN size, EFI_HANDLE *handle, const char **reason)
{
	EFI_HANDLE loaded = NULL;
	EFI_STATUS status =
	    load_image(true, boot_policy, parent, path, buffer, size, &loaded, reason);

	/* The firmware never starts an image the policy deferred: drop it here rather than
	 * leave each caller to unload it. */
	if (status == EFI_SECURITY_VIOLATION) {
		image_free(image_lookup(loaded));
		if (reason)
			*reason = "refused by the security policy (Secure Boot)";
	} else if (!EFI_ERROR(status)) {
		*handle = loaded;
	}
	return status;
}

EFI_STATUS image_load_builtin(EFI_HANDLE parent, const void *buffer, UINTN size, EFI_HANDLE *handle,
			      const char **reason)
{
	return load_image(false, false, parent, NULL, buffer, size, handle, reason);
}

EFI_STATUS EFIAPI efi_load_image(BOOLEAN boot_policy, EFI_HANDLE parent,
				 EFI_DEVICE_PATH_PROTOCOL *path, VOID *buffer, UINTN size,
				 EFI_HANDLE *image)
{
	if (!image || !image_lookup(parent))
		return EFI_INVALID_PARAMETER;
	if (!buffer && !path)
		return EFI_NOT_FOUND;
	return load_image(true, boot_policy, parent, path, buffer, size, image, NULL);
}
