/* Loaded images, shared by the loader and StartImage/Exit/UnloadImage. */
#ifndef CORE_IMAGE_IMAGE_H
#define CORE_IMAGE_IMAGE_H

#include <ember/core/core.h>
#include <ember/lib/list.h>
#include <ember/core/pe.h>
#include <ember/lib/arch.h>
#include <efi/debug_image_info.h>

#define IMAGE_SIGNATURE SIGNATURE_32('i', 'm', 'a', 'g')

struct image {
	UINT32 signature;
	EFI_HANDLE handle;
	EFI_LOADED_IMAGE_PROTOCOL loaded;      /* published on the handle */
	EFI_DEVICE_PATH_PROTOCOL *device_path; /* full path, LoadedImageDevicePath */
	void *hii_packages; /* its HII package list, published as HiiPackageList; or NULL */
	struct pe_image_info pe;
	EFI_PHYSICAL_ADDRESS pages_base;
	UINTN pages;
	EFI_IMAGE_ENTRY_POINT entry;
	bool started;
	bool deferred; /* the security policy said EFI_SECURITY_VIOLATION: never started */
	bool aborting; /* image_abort_running is unwinding it */
	bool outside;  /* loaded from outside the firmware (the security policy judged it) */
	struct jump_buffer *exit_jump;
	EFI_STATUS exit_status;
	UINTN exit_data_size;
	CHAR16 *exit_data;
	EFI_TPL start_tpl;
	struct list link;
	char name[64];
};

/* The image behind a handle, or NULL when the handle is not a loaded image of ours. */
struct image *image_lookup(EFI_HANDLE handle);
/* Removes an image and everything it holds (after it ran or instead of running it). */
void image_free(struct image *img);

/* Reads a file named by a device path through SimpleFileSystem, LoadFile2 or LoadFile. */
EFI_STATUS image_read_file(bool boot_policy, EFI_DEVICE_PATH_PROTOCOL *path, void **buffer,
			   UINTN *size, EFI_HANDLE *device, EFI_DEVICE_PATH_PROTOCOL **file_path);

/* Makes a loaded image's code read-only and the rest of it non-executable when its
 * section alignment allows (protect.c). */
void image_protect(struct image *img);

/* Lists a published image in EFI_DEBUG_IMAGE_INFO_TABLE and tells a debugger of it
 * (debug_table.c); image_debug_remove undoes both before the image goes. */
void image_debug_add(struct image *img);
void image_debug_remove(struct image *img);
/* Tells a debugger an image's new name (ember-run names the program it loaded from a
 * buffer): the load hook again, with the same base. */
void image_debug_renamed(struct image *img);
/* The functions a debugger breaks on to hear of loads and unloads (their arguments are
 * the image's name, base, size in memory and entry point; name and base). */
void image_debug_loaded_hook(const char *name, UINT64 base, UINT64 size, UINT64 entry);
void image_debug_unloaded_hook(const char *name, UINT64 base);

/* Places EFI_SYSTEM_TABLE_POINTER on a 4 MiB boundary (system_table_pointer.c, an init
 * step); image_system_table_pointer says where (NULL before). */
EFI_STATUS image_publish_system_table_pointer(void);
extern EFI_SYSTEM_TABLE_POINTER *image_system_table_pointer;

extern struct list image_list;

#endif
