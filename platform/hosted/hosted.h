/* Pieces of the hosted platform (ember-run), shared between its files. */
#ifndef EMBER_HOSTED_H
#define EMBER_HOSTED_H

#include <stdbool.h>
#include <efi/system_table.h>
#include <efi/protocol/device_path.h>

/* Console: ConIn + SimpleTextInputEx from stdin, ConOut to stdout, StdErr to stderr.
 * Installs the handles and sets them in the system table. */
EFI_STATUS hosted_console_init(void);
/* Puts the terminal back the way it was (called at exit, also after a crash). */
void hosted_console_restore(void);

/* GOP over an in-memory framebuffer; the given size becomes mode 0. */
EFI_STATUS hosted_gop_init(UINT32 width, UINT32 height);
/* Writes the current framebuffer as a PNG file; returns false with errno-style reason. */
bool hosted_gop_screenshot(const char *path);

/* A host directory as a SimpleFileSystem volume on a new handle. */
EFI_STATUS hosted_fs_mount(const char *directory, EFI_HANDLE *handle,
			   EFI_DEVICE_PATH_PROTOCOL **device_path);

/* ---- Disk images (disk.c) and file-system names (mapping.c) ---- */

/* VenHw(vendor GUID) whose vendor data is a UINT32 index, then End: the device path of
 * --disk images and of host directories. */
#pragma pack(push, 1)
struct hosted_index_path {
	VENDOR_DEVICE_PATH vendor;
	UINT32 index;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

/* Fills an index path. */
void hosted_index_path_init(struct hosted_index_path *path, const EFI_GUID *vendor, UINT32 index);

/* The vendor GUID of the VenHw() node of --disk devices; its vendor data is the disk's
 * index (UINT32) in command-line order. */
#define EMBER_HOSTED_DISK_GUID                                                                     \
	EFI_GUID_INIT(0x060eebc7, 0xd6ad, 0x4e41, 0xa6, 0x8c, 0xac, 0xb5, 0x4b, 0x13, 0x5d, 0x80)

/* Records a --disk IMAGE[:ro] option (exits on too many). */
void hosted_disk_add(const char *spec);
/* How many --disk options were recorded so far. */
UINT32 hosted_disk_count(void);
/* Opens each recorded image and installs its BlockIo handle; exits(2) with a message when
 * an image cannot be used. Call before connecting controllers. */
void hosted_disks_attach(void);
/* The device path of --disk number index (0-based); NULL before it is attached. */
EFI_DEVICE_PATH_PROTOCOL *hosted_disk_path(UINT32 index);

/* Numbers the file systems fs0:, fs1: ... after controllers are connected: devices in
 * command-line order (the --esp volume comes after the first esp_position disks), each
 * device's volumes in partition order. Logs the list at info level. */
void hosted_map_build(EFI_DEVICE_PATH_PROTOCOL *esp_path, UINT32 esp_position);
/* The device path of "fsN:\dir\file" (volume path + File Path node); NULL when name is not
 * such a name; exits(2) when fsN: does not exist. */
EFI_DEVICE_PATH_PROTOCOL *hosted_map_file_path(const char *name);

/* ember-run --tpm SOCKET (tpm.c): initializes swtpm through SOCKET.ctrl, then starts the TPM
 * behind SOCKET as the machine's; exits(2) when it cannot. */
void hosted_tpm_start(const char *socket_path);

/* ---- The network (net_*.c, net.h) ---- */

/* The vendor GUID of the VenHw() node before the NIC's MAC() node (vendor data: UINT32 0). */
#define EMBER_HOSTED_NET_GUID                                                                      \
	EFI_GUID_INIT(0x8b5801bf, 0x2b91, 0x47b8, 0x9d, 0x3d, 0xce, 0x53, 0x97, 0x5b, 0xa6, 0x40)

/* Records --net user[,OPTIONS]; exits(2) with a message on a bad option. */
void hosted_net_add(const char *spec);
/* Installs the NIC's SimpleNetwork handle when --net was given; exits(2) when the network
 * cannot start. */
void hosted_net_attach(void);

/* ---- Owned by the runner itself (main.c, platform.c, crash.c) ---- */

/* The options that outlive argument parsing. */
struct hosted_options {
	const char *app;	/* the EFI program */
	const char *screenshot; /* --screenshot FILE.png, or NULL */
	const char *esp;	/* --esp DIR, or NULL */
	bool trace;		/* --trace */
	bool keep_going;	/* --keep-going */
};
extern struct hosted_options hosted_options;

/* ember-run --gdb (gdb.c): replaces ember-run by gdb running the same command line without
 * the gdb options, with scripts/gdb/ember.py loading each program's symbols where it was
 * placed (from the program's directory and esp); print: writes the gdb command instead. */
_Noreturn void hosted_gdb_exec(int argc, char **argv, int first_arg, const char *esp, bool print,
			       bool break_at_entry);

/* "function+0xoffset" for an offset into the image called image_name (NULL: ember-run
 * itself), from its symbol file (crash_symbols.c); false when there is none. */
bool hosted_function_name(const char *image_name, UINT64 offset, char *out, size_t size);

/* Ends the process the way every path out of ember-run does: terminal restored,
 * screenshot written, then exit(code). */
_Noreturn void hosted_exit(int code);

/* Starts and stops the periodic SIGALRM that stands in for the timer interrupt. */
void hosted_timer_start(void);
void hosted_timer_stop(void);

/* Installs the handlers that turn a fault in an EFI program into a report and exit 3,
 * or, under --keep-going, into the end of the program as Exit(EFI_ABORTED). */
void hosted_crash_handlers_install(void);
/* The base of the last image a fault ended under --keep-going (crash.c), else 0. */
extern UINT64 hosted_crash_ended;

/* The inaccessible page below the programs' stack (main.c), 0 before there is one. */
/* At ExitBootServices, as on QEMU: all RAM writable and executable again (the program
 * owns it now), the stack's guard page excepted. */
void hosted_memory_release(void);

#define HOSTED_GUARD_SIZE 4096
extern UINT64 hosted_stack_guard;

/* vars.c: the variable store in the file at path (--vars), or in memory when NULL. */
void hosted_vars_start(const char *path);

#endif
