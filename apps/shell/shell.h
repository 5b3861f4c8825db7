/* Ember's shell: the interface for its commands.
 *
 * A command is a function registered with SH_COMMAND in any file under apps/shell/ (no
 * central list): it gets the shell and its words (argv[0] is the name as typed) and
 * returns an EFI_STATUS, which becomes %lasterror%. It prints with sh_print (standard
 * output) and sh_error (standard error), which follow the redirections and pipes of the
 * command line (and page when -b or page break mode is on); it never writes to ConOut
 * itself. It parses its options with sh_args_parse, which also takes the generic "-b"
 * (page output) and answers unknown options with a message. Errors are reported in words,
 * prefixed with the command's name ("ls: fs9:\ is not a mapping"); inside a script the
 * shell adds the script's name and line. Long loops poll sh_interrupted() and stop.
 *
 *     static EFI_STATUS cmd_hello(struct shell *sh, UINTN argc, CHAR16 **argv)
 *     {
 *             static const struct sh_opt opts[] = {{"-n", SH_OPT_VALUE}, {NULL}};
 *             struct sh_args a;
 *             EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);
 *
 *             if (EFI_ERROR(status))
 *                     return status;
 *             sh_print(sh, "hello %ls\n", a.count ? a.pos[0] : u"world");
 *             return EFI_SUCCESS;
 *     }
 *     SH_COMMAND(hello, "hello", "Greets someone",
 *                "hello [-n N] [name]\n  Prints a greeting.\n", cmd_hello);
 *
 * Everything here uses only the UEFI API (the application's tables from ../lib/app.h).
 * Strings returned as "allocated" are freed with app_free(). */
#ifndef SHELL_H
#define SHELL_H

#include "../lib/app.h"
#include "pure/mem.h"
#include "pure/text.h"
#include <efi/protocol/shell.h>
#include <efi/protocol/simple_file_system.h>

struct shell;

/* ---- Commands ---- */

typedef EFI_STATUS (*sh_command_fn)(struct shell *sh, UINTN argc, CHAR16 **argv);

struct sh_command {
	const char *name;    /* what is typed, matched ignoring case */
	const char *summary; /* one line for `help` */
	const char *help;    /* `help NAME`: usage line, then what it does, options, examples */
	sh_command_fn run;
};

/* Registers a command: entries live in the PE section .shcmd$m, which lld sorts between
 * the markers in .shcmd$a and .shcmd$z (cmd_table.c). ident must be unique. */
#define SH_COMMAND(ident, name_, summary_, help_, run_)                                            \
	__attribute__((used, section(".shcmd$m"),                                                  \
		       aligned(8))) static const struct sh_command sh_command_##ident = {          \
	    name_, summary_, help_, run_}

/* The command called name (ignoring case), or NULL. */
const struct sh_command *sh_command_find(const CHAR16 *name);
/* Every command sorted by name: fills out[] (up to max) and returns how many there are. */
UINTN sh_command_list(const struct sh_command **out, UINTN max);

/* Runs a command line as if typed (variables, aliases, pipes, redirections); returns the
 * status of its last command (also left in %lasterror%). */
EFI_STATUS sh_execute(struct shell *sh, const CHAR16 *line);

/* ---- Output ---- */

/* printf-style output (ember/lib/format.h: %ls CHAR16 strings, %pG GUIDs, %r statuses) to
 * standard output; "\n" becomes CR LF. */
void sh_print(struct shell *sh, const char *fmt, ...);
void sh_vprint(struct shell *sh, const char *fmt, va_list ap);
/* The same to standard error; inside a script prefixed with "NAME.nsh line N: ". */
void sh_error(struct shell *sh, const char *fmt, ...);
/* UCS-2 text as it is (no conversion) to standard output. */
void sh_write(struct shell *sh, const CHAR16 *text, UINTN len);
/* A status in words for messages ("no such file or directory" for EFI_NOT_FOUND ...);
 * falls back to the status's name. */
const char *sh_status_text(EFI_STATUS status);
/* A status's words from a table of the caller's wording, else its spec name. */
struct sh_status_words {
	EFI_STATUS status;
	const char *text;
};
const char *sh_status_words(const struct sh_status_words *table, UINTN count, EFI_STATUS status);

/* Whether standard output is the console (not a file, pipe or variable). */
bool sh_output_is_console(struct shell *sh);

/* Page break mode for console output: a "Press ENTER to continue or 'Q' to break" pause
 * after each screenful. -b turns it on for one command; EnablePageBreak for the session.
 * There are pauses only when a person types on the console (sh_input_interactive). */
void sh_page_break(struct shell *sh, bool on);
/* Whether the user asked the running command to stop ('Q' at a page pause, Ctrl-C). */
bool sh_interrupted(struct shell *sh);

/* Waits for a key on the console; *key gets it. EFI_ABORTED when the input has ended (no
 * key will ever come: see the README's "Console input"). */
EFI_STATUS sh_read_key(struct shell *sh, EFI_INPUT_KEY *key);
/* Whether a person types on the console input, so that pausing for an answer makes sense
 * (not when the keys come from a file or a pipe). */
bool sh_input_interactive(struct shell *sh);

/* ---- Arguments ---- */

enum sh_opt_kind { SH_OPT_FLAG, SH_OPT_VALUE };

/* One option a command takes: "-r", "-sfo", "-n" (SH_OPT_VALUE: the next word is its
 * value). A list ends with {NULL}. At most 31 options. */
struct sh_opt {
	const char *name;
	int kind;
};

struct sh_args {
	CHAR16 **pos; /* the words that are not options, in order */
	UINTN count;
	const struct sh_opt *opts;
	UINT32 present; /* bit i: opts[i] was given */
	const CHAR16 *values[31];
};

/* Sorts argv[1..] into options and positional words (argv is reordered in place; words
 * stay valid for the command's run). Options match ignoring case; "-b" is always accepted
 * and turns page break mode on. A word starting with '-' that is a number (-1) is
 * positional. Unknown options and options missing their value are reported and give
 * EFI_INVALID_PARAMETER. */
EFI_STATUS sh_args_parse(struct shell *sh, UINTN argc, CHAR16 **argv, const struct sh_opt *opts,
			 struct sh_args *out);
bool sh_args_has(const struct sh_args *a, const char *name);
/* The value of a SH_OPT_VALUE option, or NULL when not given. */
const CHAR16 *sh_args_value(const struct sh_args *a, const char *name);

/* Numbers: see pure/text.h (sh_parse_u64 with 0x or hex_default, sh_parse_i64). */

/* ---- Mappings (fs0:, blk0: ...) ---- */

struct sh_map {
	CHAR16 name[16]; /* "fs0", "blk2": no colon */
	EFI_HANDLE handle;
	EFI_DEVICE_PATH_PROTOCOL *path; /* the handle's device path (a copy) */
	bool fs;			/* a SimpleFileSystem volume */
	CHAR16 *cwd;			/* its current directory: "\" or "\A\B" (fs only) */
};

/* fsN: for every SimpleFileSystem handle and blkN: for every BlockIo handle, each kind
 * numbered in the order of its device path texts. Refreshing keeps the current directory
 * of mappings whose device path is unchanged. */
EFI_STATUS sh_map_refresh(struct shell *sh);
UINTN sh_map_count(struct shell *sh);
const struct sh_map *sh_map_get(struct shell *sh, UINTN index);
/* By name, with or without the colon, ignoring case; NULL when unknown. */
const struct sh_map *sh_map_find(struct shell *sh, const CHAR16 *name);
/* The current file system, NULL when there is none. */
const struct sh_map *sh_map_current(struct shell *sh);

/* Text of a device path (DevicePathToText, display form); allocated; never NULL unless out
 * of memory ("(no text)" when the protocol is missing). */
CHAR16 *sh_devpath_text(struct shell *sh, const EFI_DEVICE_PATH_PROTOCOL *path);

/* ---- Paths and files ----
 * Names are as users write them: "fs0:\dir\file", "fs0:file" (relative to fs0:'s current
 * directory), "\dir" (on the current file system), "dir\file", with "." and ".."; '/' is
 * taken as '\'. */

struct sh_path {
	UINTN map;    /* index of the mapping (sh_map_get) */
	CHAR16 *path; /* normalised: "\" or "\A\B" */
};

/* Resolves a name. EFI_NOT_FOUND: unknown mapping or no current file system;
 * EFI_INVALID_PARAMETER: a malformed name. No message is printed. */
EFI_STATUS sh_resolve(struct shell *sh, const CHAR16 *name, struct sh_path *out);
void sh_path_free(struct sh_path *p);
/* "fs0:\A\B" for a resolved path; allocated. */
CHAR16 *sh_path_text(struct shell *sh, const struct sh_path *p);

/* Opens a file or directory (EFI_FILE_MODE_* and attributes as EFI_FILE_PROTOCOL.Open). */
EFI_STATUS sh_open(struct shell *sh, const CHAR16 *name, UINT64 mode, UINT64 attributes,
		   EFI_FILE_PROTOCOL **out);
EFI_STATUS sh_open_path(struct shell *sh, const struct sh_path *p, UINT64 mode, UINT64 attributes,
			EFI_FILE_PROTOCOL **out);
/* The file's EFI_FILE_INFO, allocated; NULL on failure (or a malformed answer). */
EFI_FILE_INFO *sh_file_info(EFI_FILE_PROTOCOL *file);
/* Whether an open file is a directory (its EFI_FILE_INFO says so). */
bool sh_is_directory(EFI_FILE_PROTOCOL *file);
/* The whole contents of a file (allocated, with two zero bytes after *size). */
EFI_STATUS sh_read_file(struct shell *sh, const CHAR16 *name, void **data, UINTN *size);
/* Creates or truncates a file and writes data. */
EFI_STATUS sh_write_file(struct shell *sh, const CHAR16 *name, const void *data, UINTN size);
/* The next entry of an open directory (skipping "." and ".."); *info is allocated, NULL
 * at the end. EFI_VOLUME_CORRUPTED when what was read is not an entry. */
EFI_STATUS sh_dir_next(EFI_FILE_PROTOCOL *dir, EFI_FILE_INFO **info);

/* Whether name matches a wildcard pattern (EFI_UNICODE_COLLATION_PROTOCOL.MetaiMatch when
 * the firmware has it, else the shell's own matcher: same rules). */
bool sh_name_match(struct shell *sh, const CHAR16 *name, const CHAR16 *pattern);

/* One file found by sh_glob. */
struct sh_match {
	CHAR16 *full;	     /* "fs0:\dir\name" */
	const CHAR16 *name;  /* its last component, within full */
	EFI_FILE_INFO *info; /* allocated */
};

/* The files a name stands for: itself when it has no wildcards (and exists), else the
 * entries of its directory matching its last component, sorted by name. EFI_NOT_FOUND when
 * nothing matches. Free with sh_glob_free. */
EFI_STATUS sh_glob(struct shell *sh, const CHAR16 *pattern, struct sh_match **out, UINTN *count);
void sh_glob_free(struct sh_match *m, UINTN count);
/* Where the last component of a name starts (after its last '\', '/' or ':'). */
size_t sh_last_component(const CHAR16 *name);

/* The full device path of a file (the volume's path, then a file path node); allocated. */
EFI_DEVICE_PATH_PROTOCOL *sh_file_device_path(struct shell *sh, const CHAR16 *name);

/* ---- Environment ---- */

/* A variable's value (names ignore case; lasterror, cwd and the other dynamic ones are
 * included), or NULL when unset. Valid until the variable changes. */
const CHAR16 *sh_env_get(struct shell *sh, const CHAR16 *name);
/* Sets (value NULL: deletes) a variable. Non-volatile ones are also kept as UEFI variables
 * (EFI_SHELL_VARIABLE_GUID) and come back in the next session. */
EFI_STATUS sh_env_set(struct shell *sh, const CHAR16 *name, const CHAR16 *value, bool is_volatile);

/* ---- Handles, images, names ---- */

/* The handle numbers that dh, devices and drivers show: 1, 2 ... given in the order the
 * shell first sees handles (all handles are numbered at start and on every refresh) and
 * never reused during the session. 0 when h is not a handle. */
UINTN sh_handle_index(struct shell *sh, EFI_HANDLE h);
/* The handle with a number, or NULL when there is none (or it has gone). */
EFI_HANDLE sh_handle_lookup(struct shell *sh, UINTN index);
/* The highest number given so far (numbers of gone handles are skipped by lookup). */
UINTN sh_handle_max(struct shell *sh);
/* Numbers handles that appeared since the last refresh. */
void sh_handles_refresh(struct shell *sh);

/* A readable name for a device handle: its ComponentName2 controller name, else its
 * device path text; allocated, NULL when there is neither. */
CHAR16 *sh_device_name(struct shell *sh, EFI_HANDLE h);

/* The name of a GUID ("DevicePath", "BlockIo" ...), or NULL: from Ember's table of GUIDs
 * (lib/guids.c), or registered by programs through RegisterGuidName. */
const CHAR16 *sh_guid_name(struct shell *sh, const EFI_GUID *guid);

/* Loads an image from a file (LoadImage with its device path) without starting it. */
EFI_STATUS sh_load_image(struct shell *sh, const CHAR16 *name, EFI_HANDLE *image);
/* Starts a loaded image as a shell program: argv become its EFI_SHELL_PARAMETERS_PROTOCOL
 * and LoadOptions, its standard handles follow the current redirections. *exit_status gets
 * what StartImage returned. */
EFI_STATUS sh_start_image(struct shell *sh, EFI_HANDLE image, UINTN argc, CHAR16 **argv,
			  EFI_STATUS *exit_status);

#endif
