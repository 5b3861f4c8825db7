/* A front end for file systems: one set of EFI_FILE_PROTOCOL entry points (UEFI 2.10, 13.5)
 * that checks every call's arguments in the order the specification lists its statuses,
 * takes the file system's lock, completes the ...Ex requests through their tokens, and
 * hands the rest to the file system's operations. A handle embeds struct file_front and is
 * recovered with container_of. Used by the FAT driver and ember-run's host directories. */
#ifndef EMBER_FILE_FRONT_H
#define EMBER_FILE_FRONT_H

#include <stdbool.h>
#include <efi/protocol/simple_file_system.h>

/* The longest volume label any file system takes, in UCS-2 units. */
#define FILE_FRONT_LABEL_MAX 255

struct file_front;

/* What a file system implements. Every operation runs at ops->tpl, with its arguments
 * checked as the entry point's section of 13.5 requires, after ops->usable said yes. */
struct file_front_ops {
	/* The TPL every call raises to while it runs. */
	EFI_TPL tpl;
	/* The longest label SetInfo hands to set_label (at most FILE_FRONT_LABEL_MAX). */
	UINTN label_max;
	/* Optional: EFI_SUCCESS while the handle's file system is there (a medium may have
	 * gone or changed), else why not. Every call but Close asks first. */
	EFI_STATUS (*usable)(struct file_front *f);
	/* Open(): mode is one of the three valid ones; attributes are valid when creating.
	 * The new handle goes to *out. */
	EFI_STATUS (*open)(struct file_front *from, const CHAR16 *name, UINT64 mode,
			   UINT64 attributes, struct file_front **out);
	/* Releases the handle (Close, and Delete after its attempt). */
	void (*close)(struct file_front *f);
	/* Delete()'s removal: EFI_SUCCESS or EFI_WARN_DELETE_FAILURE. */
	EFI_STATUS (*delete)(struct file_front *f);
	/* Read() and ReadEx(); *size is the buffer's size in, what was read out. */
	EFI_STATUS (*read)(struct file_front *f, UINTN *size, void *buffer);
	/* Write() and WriteEx(); *size is what to write in, what was written out. */
	EFI_STATUS (*write)(struct file_front *f, UINTN *size, const void *buffer);
	EFI_STATUS (*get_position)(struct file_front *f, UINT64 *position);
	EFI_STATUS (*set_position)(struct file_front *f, UINT64 position);
	/* Flush() and FlushEx(). */
	EFI_STATUS (*flush)(struct file_front *f);
	/* GetInfo() of EFI_FILE_INFO, EFI_FILE_SYSTEM_INFO and EFI_FILE_SYSTEM_VOLUME_LABEL:
	 * *size is the buffer's size in, the size needed out. */
	EFI_STATUS (*file_info)(struct file_front *f, UINTN *size, void *buffer);
	EFI_STATUS (*fs_info)(struct file_front *f, UINTN *size, void *buffer);
	EFI_STATUS (*volume_label)(struct file_front *f, UINTN *size, void *buffer);
	/* SetInfo(EFI_FILE_INFO): the request's fixed part and its FileName, both copied out
	 * of the caller's buffer after their sizes and the name's terminator were checked. */
	EFI_STATUS (*set_file_info)(struct file_front *f, const EFI_FILE_INFO *info,
				    const CHAR16 *name);
	/* SetInfo() of the label (by EFI_FILE_SYSTEM_INFO or EFI_FILE_SYSTEM_VOLUME_LABEL):
	 * a terminated string of at most label_max units. */
	EFI_STATUS (*set_label)(struct file_front *f, const CHAR16 *label);
};

/* The part of a file handle the front end owns. */
struct file_front {
	UINT32 signature;
	EFI_FILE_PROTOCOL file; /* what callers hold */
	const struct file_front_ops *ops;
};

/* Makes f a live handle whose calls go to ops. */
void file_front_init(struct file_front *f, const struct file_front_ops *ops);
/* Ends the handle: calls through it are refused from now on. */
void file_front_fini(struct file_front *f);
/* The handle behind a caller's This, or NULL when This is no live handle. */
struct file_front *file_front_from(EFI_FILE_PROTOCOL *file);

/* True for a valid EFI_TIME of a file (13.5.16): the fields in range, any day up to 31 of
 * a month that may have one (29 in February), the time zone unspecified or +-24 hours. */
bool file_front_time_valid(const EFI_TIME *time);

#endif
