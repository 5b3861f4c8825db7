/* The boot manager's pieces. */
#ifndef BDS_BDS_H
#define BDS_BDS_H

#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/lib/load_option.h>
#include <ember/lib/guids.h>

/* One Boot####/Driver####/SysPrep#### variable, read and parsed. */
struct bds_option {
	UINT16 number;
	const CHAR16 *kind; /* u"Boot", u"Driver", u"SysPrep" */
	void *data;	    /* the variable's bytes (pool) */
	UINTN size;
	struct load_option lo;
};

/* options.c */
void bds_option_name(CHAR16 name[16], const CHAR16 *kind, UINT16 number);
bool bds_option_read(const CHAR16 *kind, UINT16 number, struct bds_option *option);
void bds_option_free(struct bds_option *option);
/* The UINT16 array in BootOrder/DriverOrder/SysPrepOrder (NULL, 0 when absent). */
UINT16 *bds_order_read(const CHAR16 *name, UINTN *count);
EFI_STATUS bds_order_write(const CHAR16 *name, const UINT16 *order, UINTN count);
/* Writes a new option under the first free number and returns the number. */
EFI_STATUS bds_option_create(const CHAR16 *kind, const struct load_option *lo, UINT16 *number);
EFI_STATUS bds_option_delete(const CHAR16 *kind, UINT16 number);

/* expand.c: the full device paths an option's file path stands for, one at a time. */
typedef bool (*bds_path_visitor)(EFI_DEVICE_PATH_PROTOCOL *full_path, void *ctx);
void bds_expand_path(const EFI_DEVICE_PATH_PROTOCOL *path, bds_path_visitor visit, void *ctx);
/* The removable-media file path appended to a device: ARCH_REMOVABLE_FILE (ember/lib/arch.h),
 * \EFI\BOOT\BOOTX64.EFI on x86-64 */
extern const CHAR16 bds_removable_path[];
/* The path is exactly that of a handle with EFI_LOAD_FILE_PROTOCOL (a network boot device,
 * e.g. an option ROM's SNP child): LoadImage boots it through LoadFile(BootPolicy=TRUE). */
bool bds_is_load_file_device(const EFI_DEVICE_PATH_PROTOCOL *path);
/* For a path to a LoadFile device (network boot): reads its boot file with
 * BootPolicy=TRUE into *buffer (*size bytes, the caller frees it), or, when LoadFile
 * answers EFI_WARN_FILE_SYSTEM, registers it as a RAM disk whose path goes to *disk (the
 * caller frees the path). Returns false, touching nothing else, for other paths. */
bool bds_load_file_read(EFI_DEVICE_PATH_PROTOCOL *path, void **buffer, UINTN *size,
			EFI_DEVICE_PATH_PROTOCOL **disk, EFI_STATUS *status);

/* boot.c */
EFI_STATUS bds_load(const EFI_DEVICE_PATH_PROTOCOL *path, bool boot_policy, EFI_HANDLE *image);
EFI_STATUS bds_boot(struct bds_option *option);
EFI_STATUS bds_start_image(EFI_HANDLE image, const CHAR16 *what);

/* defaults.c: options for every bootable device, stale ones of Ember's own removed. */
void bds_default_options(const struct bds_platform *platform);
/* True for an option Ember created itself (its OptionalData is Ember's marker). */
bool bds_is_auto_option(const struct load_option *lo);

/* menu.c: the interactive menu; the option number chosen, or -1 for none. */
int bds_menu(void);
/* The same with an "Ember settings" entry when settings is true: BDS_MENU_SETTINGS when
 * it is chosen. */
#define BDS_MENU_SETTINGS (-2)
int bds_menu_with(bool settings);
bool bds_menu_key_pressed(UINT32 wait_ms);
/* Prints a line (UTF-8, format.h's format) on the console. */
void bds_say(const char *fmt, ...);

/* consoles.c: ConIn/ConOut/ErrOut(Dev) variables from the devices there are. */
void bds_console_variables(void);

#endif
