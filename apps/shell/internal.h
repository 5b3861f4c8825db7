/* The shell's own state and the internal interfaces between its files (commands use
 * shell.h only). */
#ifndef SHELL_INTERNAL_H
#define SHELL_INTERNAL_H

#include "shell.h"
#include "pure/edit.h"
#include "pure/expand.h"
#include "pure/parse.h"
#include "pure/script.h"
#include <efi/protocol/device_path_to_text.h>
#include <efi/protocol/unicode_collation.h>
#include <ember/drivers/text_input_state.h>

#define SHELL_VERSION "0.1"

/* ---- Streams: where standard input, output and error go ----
 * Each is also an EFI_FILE_PROTOCOL, so that a program gets it as StdIn/StdOut/StdErr. */

enum sh_stream_kind {
	SH_STREAM_CONSOLE, /* output: ConOut (or StdErr); input: the keyboard */
	SH_STREAM_FILE,	   /* an open file */
	SH_STREAM_MEMORY,  /* text in memory: pipes, "<" input, ">v" variables */
	SH_STREAM_NULL,	   /* NUL: output vanishes, input is empty */
};

struct sh_stream {
	EFI_FILE_PROTOCOL file; /* first: programs are handed &file */
	UINT32 signature;
	UINT8 kind;
	bool is_error;	/* console: StdErr instead of ConOut */
	bool is_input;	/* console: the keyboard */
	bool ascii;	/* file: written as UTF-8/ASCII text instead of UCS-2 */
	bool owns_file; /* file: closed with the stream */
	CHAR16 last;	/* the last character written (CR LF pairing) */
	EFI_FILE_PROTOCOL *target;
	struct sh_buf text; /* memory: the text */
	size_t read_pos;    /* memory: units consumed by readers */
	struct shell *sh;
};

/* Console streams: is_input for the keyboard, else ConOut or (is_error) StdErr. */
void sh_stream_console(struct sh_stream *s, struct shell *sh, bool is_input, bool is_error);
void sh_stream_memory(struct sh_stream *s, struct shell *sh);
void sh_stream_null(struct sh_stream *s, struct shell *sh);
/* A stream whose reads and writes go to s->file (stream_file.c). */
void sh_stream_file_protocol(struct sh_stream *s);
/* Wraps an open file; ascii selects UTF-8 text, else UCS-2 (with a byte-order mark when the
 * file is empty). */
void sh_stream_file(struct sh_stream *s, struct shell *sh, EFI_FILE_PROTOCOL *f, bool ascii);
/* Releases what the stream holds (the file if owned, the memory text). */
void sh_stream_close(struct sh_stream *s);
/* Writes UCS-2 text; lone LF becomes CR LF on the console and in files. */
EFI_STATUS sh_stream_write(struct sh_stream *s, const CHAR16 *text, size_t len);
/* Reads one line of input (without its line end) into *line (allocated); EFI_END_OF_FILE
 * when nothing is left. */
EFI_STATUS sh_stream_read_line(struct sh_stream *s, CHAR16 **line);
/* The stream behind a SHELL_FILE_HANDLE, or NULL when it is an ordinary file. */
struct sh_stream *sh_stream_from_handle(SHELL_FILE_HANDLE h);

/* ---- Environment and aliases ---- */

struct sh_var {
	struct sh_var *next;
	CHAR16 *name;
	CHAR16 *value;
	bool is_volatile;
};

EFI_STATUS sh_env_init(struct shell *sh);
/* A list of variables (or aliases): set (value NULL deletes) and sorted iteration. */
EFI_STATUS sh_var_list_set(struct sh_var **list, const CHAR16 *name, const CHAR16 *value,
			   bool is_volatile);
void sh_var_list_each(struct shell *sh, struct sh_var *list,
		      void (*fn)(struct shell *sh, const struct sh_var *v, void *ctx), void *ctx);
/* Calls fn for every variable (dynamic ones included), sorted by name. */
void sh_env_each(struct shell *sh, void (*fn)(struct shell *sh, const struct sh_var *v, void *ctx),
		 void *ctx);
/* A lookup usable as sh_vars.get_env (ctx is the shell). */
const CHAR16 *sh_env_lookup(void *ctx, const CHAR16 *name, size_t len);

EFI_STATUS sh_alias_init(struct shell *sh);
/* The command an alias stands for, or NULL. */
const CHAR16 *sh_alias_get(struct shell *sh, const CHAR16 *alias, bool *is_volatile);
/* Sets (command NULL: deletes) an alias. */
EFI_STATUS sh_alias_set(struct shell *sh, const CHAR16 *alias, const CHAR16 *command,
			bool is_volatile);
/* The aliases, sorted: fn(alias, command, is_volatile). */
void sh_alias_each(struct shell *sh,
		   void (*fn)(struct shell *sh, const struct sh_var *a, void *ctx), void *ctx);

/* ---- Running ---- */

/* Runs an already expanded line (scripts expand lines themselves). */
EFI_STATUS sh_run_expanded(struct shell *sh, const CHAR16 *line);
/* Runs one parsed command (builtin, mapping switch, program or script). */
EFI_STATUS sh_run_command(struct shell *sh, UINTN argc, CHAR16 **argv);
/* Finds a program or script by name (cwd, then %path%, with .efi/.nsh added). */
EFI_STATUS sh_find_executable(struct shell *sh, const CHAR16 *name, CHAR16 **full);
/* Runs a .efi file with argv. */
EFI_STATUS sh_run_program(struct shell *sh, const CHAR16 *full, UINTN argc, CHAR16 **argv);
/* Runs a .nsh file with argv (%0 = argv[0]). */
EFI_STATUS sh_run_script(struct shell *sh, const CHAR16 *full, UINTN argc, CHAR16 **argv);
/* Whether the name ends with ext (".nsh"), ignoring case. */
bool sh_has_extension(const CHAR16 *name, const char *ext);

/* Redirections of one command: opens targets into streams. */
struct sh_redirect_state {
	struct sh_stream in, out, err;
	bool has_in, has_out, has_err;
	const CHAR16 *out_var, *err_var; /* ">v": set at the end */
	struct sh_stream *saved_in, *saved_out, *saved_err;
};
EFI_STATUS sh_redirect_begin(struct shell *sh, const struct sh_cmd *cmd,
			     struct sh_redirect_state *r);
void sh_redirect_end(struct shell *sh, struct sh_redirect_state *r);

/* Swaps ST->ConOut/StdErr/ConIn for the duration of a program whose standard handles are
 * redirected, so that its Print() output follows them. */
struct sh_console_swap;
struct sh_console_swap *sh_console_swap_begin(struct shell *sh);
void sh_console_swap_end(struct shell *sh, struct sh_console_swap *swap);

/* ---- Interactive parts ---- */

/* Finds out what the console input is (console_input.c); sh_input_fini releases it. */
void sh_input_init(struct shell *sh);
void sh_input_fini(struct shell *sh);

/* Reads a line with editing and history into *line (allocated). EFI_ABORTED: input ended. */
EFI_STATUS sh_read_line(struct shell *sh, const CHAR16 *prompt, CHAR16 **line);
/* File-name (and, for the first word, command-name) candidates for Tab. */
EFI_STATUS sh_complete_candidates(struct shell *sh, const CHAR16 *word, bool command,
				  struct sh_strv *out);
/* The prompt text ("fs0:\dir> "); allocated. */
CHAR16 *sh_prompt(struct shell *sh);
/* The read-run loop; returns when exit was run or input ended. */
void sh_repl(struct shell *sh);
/* Runs startup.nsh (with the countdown) if there is one. */
void sh_startup(struct shell *sh, UINTN delay_seconds);

/* ---- Paths ---- */

/* Drops every mapping (at exit). */
void sh_map_free_all(struct shell *sh);
/* Sets the current directory of a mapping (and makes it current when make_current). */
EFI_STATUS sh_set_cwd(struct shell *sh, UINTN map, const CHAR16 *path, bool make_current);
/* "fs0:\dir" of the current directory, allocated; NULL without a current file system. */
CHAR16 *sh_cwd_text(struct shell *sh);
/* Opens a file for writing, creating it or cutting it to zero bytes. */
EFI_STATUS sh_create_file(struct shell *sh, const CHAR16 *name, EFI_FILE_PROTOCOL **out);
/* Opens the root directory of a mapping. */
EFI_STATUS sh_open_root(struct shell *sh, UINTN map, EFI_FILE_PROTOCOL **root);

/* ---- The protocol programs see ---- */

EFI_STATUS sh_protocol_install(struct shell *sh);
void sh_protocol_uninstall(struct shell *sh);
/* Fills the EFI_SHELL_PROTOCOL function table (proto_*.c). */
void sh_protocol_fill_env(EFI_SHELL_PROTOCOL *p);
void sh_protocol_fill_map(EFI_SHELL_PROTOCOL *p);
void sh_protocol_fill_file(EFI_SHELL_PROTOCOL *p);
void sh_protocol_fill_find(EFI_SHELL_PROTOCOL *p);
/* GUID names registered by programs at run time. */
EFI_STATUS sh_guid_register(struct shell *sh, const EFI_GUID *guid, const CHAR16 *name);
EFI_STATUS sh_guid_from_name(struct shell *sh, const CHAR16 *name, EFI_GUID *guid);

/* The ComponentName2 controller name of a device, allocated; NULL when none. */
CHAR16 *sh_component_name(EFI_HANDLE h);
/* The help text of a command as UCS-2 (for GetHelpText); allocated. */
CHAR16 *sh_help_text(const struct sh_command *c);

/* ---- The shell ---- */

struct sh_handle_table {
	EFI_HANDLE *handles; /* index i holds number i + 1 */
	UINTN count, cap;
};

struct sh_guid_entry {
	struct sh_guid_entry *next;
	EFI_GUID guid;
	CHAR16 *name;
};

struct shell {
	EFI_HANDLE image;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *con_in; /* the real consoles at start */
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *con_in_ex;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con_out, *con_err;
	/* What the console input says of itself (console_input.c); NULL: a person types. */
	const EMBER_TEXT_INPUT_STATE_PROTOCOL *in_state;
	bool in_redirected; /* ConIn is not the console device: a pipe or file of a parent */
	bool input_ended;   /* no key will come any more */
	EFI_EVENT end_check_timer;
	EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *dp_to_text;
	EFI_UNICODE_COLLATION_PROTOCOL *collation;

	struct sh_stream console_out, console_err, console_in;
	struct sh_stream *out, *err, *in; /* where the running command's streams go */

	struct sh_var *vars, *aliases;
	CHAR16 dyn_value[64]; /* the last value of a dynamic variable (lasterror ...) */
	CHAR16 *cwd_value;
	CHAR16 *env_names; /* GetEnv(NULL)'s list */
	CHAR16 *cur_dir;   /* GetCurDir's answer */

	struct sh_map *maps;
	UINTN map_count;
	INTN cur_map; /* -1: none */

	struct sh_handle_table handles;
	struct sh_guid_entry *guid_names;

	struct sh_script_run *script; /* innermost running script, NULL interactively */
	UINTN script_depth;
	bool echo; /* scripts echo their lines */

	EFI_STATUS last_status;
	bool exiting; /* exit without /b: the shell ends */
	EFI_STATUS exit_status;

	bool page_break, page_session; /* page pauses for this command / for the session */
	UINTN page_rows;	       /* rows written since the last pause or input */
	UINTN page_column;
	bool interrupted;     /* 'Q' at a page pause: the command stops */
	volatile bool ctrl_c; /* Ctrl-C: everything stops until the next prompt */
	EFI_EVENT break_event;
	VOID *ctrl_c_notify[2];

	bool root_shell;
	EFI_HANDLE protocol_handle;
	EFI_SHELL_PROTOCOL *previous_protocol;
	EFI_SHELL_PROTOCOL protocol;

	struct sh_history history;
	struct sh_edit edit;
	struct sh_complete complete;
};

/* The shell instance (EFI_SHELL_PROTOCOL functions take no This pointer). */
extern struct shell *shell_self;

EFI_STATUS sh_create(struct shell **out, EFI_HANDLE image);
void sh_destroy(struct shell *sh);

/* Prepares the state for a new command: page break off, interruption cleared. */
void sh_command_begin(struct shell *sh);

/* Sets %lasterror%. */
void sh_set_last_status(struct shell *sh, EFI_STATUS status);

/* Allocates a CHAR16 copy of text with app_alloc (UTF-8 in, UCS-2 out). */
CHAR16 *sh_wide(const char *text);

#endif
