/* Small commands: cls, ver, stall, reset. */
#include "../internal.h"

static EFI_STATUS cmd_cls(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con = sh->con_out;
	UINT64 color;

	if (argc > 2 || (argc == 2 && (!sh_parse_u64(argv[1], false, &color) || color > 7))) {
		sh_error(sh, "cls: the background colour is a number from 0 to 7\n");
		return EFI_INVALID_PARAMETER;
	}
	if (!sh_output_is_console(sh))
		return EFI_SUCCESS;
	if (argc == 2)
		con->SetAttribute(con, (con->Mode->Attribute & 0x0f) | (UINTN)(color << 4));
	return con->ClearScreen(con);
}

static EFI_STATUS cmd_ver(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	sh_print(sh, "Ember Shell %s\n", SHELL_VERSION);
	sh_print(sh, "UEFI Shell interface %u.%u\n", EFI_SHELL_MAJOR_VERSION,
		 EFI_SHELL_MINOR_VERSION);
	sh_print(sh, "UEFI %u.%u (%ls, 0x%08x)\n", (unsigned)(app_st->Hdr.Revision >> 16),
		 (unsigned)(app_st->Hdr.Revision & 0xffff) / 10, app_st->FirmwareVendor,
		 (unsigned)app_st->FirmwareRevision);
	return EFI_SUCCESS;
}

static EFI_STATUS cmd_stall(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	UINT64 us;

	if (argc != 2 || !sh_parse_u64(argv[1], false, &us)) {
		sh_error(sh, "stall: give the time in microseconds\n");
		return EFI_INVALID_PARAMETER;
	}
	return app_bs->Stall((UINTN)us);
}

static EFI_STATUS cmd_reset(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {
	    {"-c", SH_OPT_FLAG}, {"-w", SH_OPT_FLAG}, {"-s", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_RESET_TYPE type = EfiResetCold;
	CHAR16 *text = NULL;
	UINTN size = 0;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (sh_args_has(&a, "-c") + sh_args_has(&a, "-w") + sh_args_has(&a, "-s") > 1) {
		sh_error(sh, "reset: choose one of -c, -w and -s\n");
		return EFI_INVALID_PARAMETER;
	}
	if (sh_args_has(&a, "-w"))
		type = EfiResetWarm;
	if (sh_args_has(&a, "-s"))
		type = EfiResetShutdown;
	if (a.count) {
		text = a.pos[0];
		size = str16_size(text);
	}
	app_rt->ResetSystem(type, EFI_SUCCESS, size, text);
	sh_error(sh, "reset: the firmware did not reset\n");
	return EFI_DEVICE_ERROR;
}

SH_COMMAND(cls, "cls", "Clears the screen",
	   "cls [background]\n"
	   "  Clears the console; background (0-7) also sets the background colour.\n",
	   cmd_cls);
SH_COMMAND(ver, "ver", "Shows the shell's and the firmware's versions",
	   "ver\n  Prints the shell's version, the UEFI Shell interface it offers programs and\n"
	   "  the firmware's vendor and UEFI revision.\n",
	   cmd_ver);
SH_COMMAND(stall, "stall", "Waits for a number of microseconds",
	   "stall microseconds\n  Waits (Stall boot service).\n  Example: stall 1000000\n",
	   cmd_stall);
SH_COMMAND(reset, "reset", "Resets or powers off the machine",
	   "reset [-w | -s | -c] [text]\n"
	   "  -c    cold reset (the default)\n"
	   "  -w    warm reset\n"
	   "  -s    shuts the machine down\n"
	   "  text  is passed to the firmware as the reset data\n",
	   cmd_reset);
