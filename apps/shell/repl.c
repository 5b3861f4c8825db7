/* The interactive loop: prompt, read a line, run it. */
#include "internal.h"

CHAR16 *sh_prompt(struct shell *sh)
{
	CHAR16 *cwd = sh_cwd_text(sh);
	struct sh_buf b;

	sh_buf_init(&b);
	sh_buf_puts(&b, cwd ? cwd : u"Shell");
	sh_buf_puts(&b, u"> ");
	app_free(cwd);
	return sh_buf_take(&b);
}

void sh_repl(struct shell *sh)
{
	while (!sh->exiting) {
		CHAR16 *prompt = sh_prompt(sh), *line = NULL;
		EFI_STATUS status;

		/* A Ctrl-C stops everything up to the prompt, where it is forgotten (the event
		 * programs see as ExecutionBreak too). */
		sh->ctrl_c = false;
		if (sh->break_event)
			app_bs->CheckEvent(sh->break_event);
		sh->page_rows = 0;
		sh_handles_refresh(sh);
		status = prompt ? sh_read_line(sh, prompt, &line) : EFI_OUT_OF_RESOURCES;
		app_free(prompt);
		if (EFI_ERROR(status))
			break;
		sh_execute(sh, line);
		app_free(line);
	}
}
