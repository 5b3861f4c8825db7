/* Script commands: goto, shift, exit, pause, and the block words (if, else, endif, for,
 * endfor), which the script engine runs itself and which exist here for help. */
#include "../internal.h"

static EFI_STATUS only_in_scripts(struct shell *sh, const CHAR16 *name)
{
	sh_error(sh, "%ls: only allowed in a script (.nsh)\n", name);
	return EFI_UNSUPPORTED;
}

static EFI_STATUS cmd_goto(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	if (!sh->script)
		return only_in_scripts(sh, argv[0]);
	if (argc != 2) {
		sh_error(sh, "goto: needs one label\n");
		return EFI_INVALID_PARAMETER;
	}
	if (EFI_ERROR(sh_script_goto(sh->script, argv[1] + (argv[1][0] == ':')))) {
		sh_error(sh, "goto: there is no label :%ls in this script\n", argv[1]);
		return EFI_NOT_FOUND;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_shift(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	if (!sh->script)
		return only_in_scripts(sh, argv[0]);
	sh_script_shift(sh->script);
	return sh->last_status; /* shift leaves %lasterror% as it was */
}

static EFI_STATUS cmd_exit(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	bool script_only = false;
	UINT64 code = 0;

	for (UINTN i = 1; i < argc; i++) {
		if (sh_eq_ascii(argv[i], "/b") || sh_eq_ascii(argv[i], "-b")) {
			script_only = true;
		} else if (!sh_parse_u64(argv[i], false, &code)) {
			sh_error(sh, "exit: '%ls' is not a number\n", argv[i]);
			return EFI_INVALID_PARAMETER;
		}
	}
	if (script_only && sh->script) {
		sh_script_exit(sh->script, (EFI_STATUS)code);
	} else {
		sh->exiting = true;
		sh->exit_status = (EFI_STATUS)code;
	}
	return (EFI_STATUS)code;
}

static EFI_STATUS cmd_pause(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	EFI_INPUT_KEY key;

	sh_print(sh, "Press 'q' to quit, any other key to continue: ");
	if (EFI_ERROR(sh_read_key(sh, &key)))
		key.UnicodeChar = 'q';
	sh_print(sh, "\n");
	if (key.UnicodeChar == 'q' || key.UnicodeChar == 'Q') {
		if (sh->script)
			sh_script_exit(sh->script, EFI_ABORTED);
		return EFI_ABORTED;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_block(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	return only_in_scripts(sh, argv[0]);
}

SH_COMMAND(goto, "goto", "Continues a script at a label",
	   "goto label\n"
	   "  Continues at the line \":label\" (searched after the current line, then from the\n"
	   "  top). Jumping out of a for loop ends the loop.\n",
	   cmd_goto);
SH_COMMAND(shift, "shift", "Shifts a script's parameters: %2 becomes %1 ...",
	   "shift\n  Drops %1; every later parameter moves down by one (%0 stays).\n", cmd_shift);
SH_COMMAND(exit, "exit", "Leaves the shell, or (with /b) the current script",
	   "exit [/b] [code]\n"
	   "  Without /b the shell ends and returns code (0 when omitted) to whoever started it.\n"
	   "  /b  ends only the running script; code becomes %lasterror%.\n",
	   cmd_exit);
SH_COMMAND(pause, "pause", "Waits for a key in a script",
	   "pause\n  Waits for a key; 'q' ends the running script.\n", cmd_pause);
SH_COMMAND(if, "if", "Runs lines of a script when a condition holds",
	   "if [/i] [/s] condition [then]\n"
	   "  ...\n"
	   "[else\n"
	   "  ...]\n"
	   "endif\n"
	   "Conditions:\n"
	   "  a == b                   equal strings (or equal numbers when both are numbers)\n"
	   "  a eq|ne|gt|lt|ge|le b    signed numbers (decimal or 0x hex), else strings\n"
	   "  a ugt|ult|uge|ule b      unsigned numbers\n"
	   "  exist file               the file or directory exists\n"
	   "  isint(x), exists(file), UefiError(n), PiError(n), OemError(n)\n"
	   "  not c, c and c, c or c, ( c )\n"
	   "  /i compares strings ignoring case; /s compares as strings only.\n"
	   "Example:\n"
	   "  if %lasterror% ne 0 then\n"
	   "    echo failed\n"
	   "  endif\n",
	   cmd_block);
SH_COMMAND(else, "else", "Starts the lines run when an if condition fails",
	   "else\n  See 'help if'.\n", cmd_block);
SH_COMMAND(endif, "endif", "Ends an if block", "endif\n  See 'help if'.\n", cmd_block);
SH_COMMAND(for, "for", "Repeats lines of a script",
	   "for %a in word...\n"
	   "  ...\n"
	   "endfor\n"
	   "for %a run (start end [step])\n"
	   "  ...\n"
	   "endfor\n"
	   "  The first form sets %a to each word in turn; words with wildcards stand for the\n"
	   "  matching file names. The second counts from start to end (both included) by step\n"
	   "  (1, or -1 when start > end).\n",
	   cmd_block);
SH_COMMAND(endfor, "endfor", "Ends a for loop", "endfor\n  See 'help for'.\n", cmd_block);
