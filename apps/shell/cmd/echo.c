/* echo: prints its arguments, or switches script echoing. */
#include "../internal.h"

static EFI_STATUS cmd_echo(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	if (argc == 1) {
		sh_print(sh, "Echo is %s.\n", sh->echo ? "on" : "off");
		return EFI_SUCCESS;
	}
	if (argc == 2 && (sh_eq_ascii(argv[1], "-on") || sh_eq_ascii(argv[1], "-off"))) {
		sh->echo = sh_eq_ascii(argv[1], "-on");
		return EFI_SUCCESS;
	}
	for (UINTN i = 1; i < argc; i++)
		sh_print(sh, "%s%ls", i > 1 ? " " : "", argv[i]);
	sh_print(sh, "\n");
	return EFI_SUCCESS;
}

SH_COMMAND(echo, "echo", "Prints a message, or turns script echoing on or off",
	   "echo [-on | -off]\n"
	   "echo message...\n"
	   "  With a message, prints it (the words joined by single spaces) and a line end.\n"
	   "  -on, -off  scripts show (or stop showing) each line before running it; a line\n"
	   "             starting with @ is never shown. Without arguments, tells the state.\n"
	   "Examples:\n"
	   "  @echo -off\n"
	   "  echo \"Hello,   world\" > fs0:\\hello.txt\n",
	   cmd_echo);
