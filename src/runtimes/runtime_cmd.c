/* runtime_cmd.c - which commands preflight.yaml's runtimes.NAME.command
 * may run.
 *
 * A repository chooses both the program and the arguments of its
 * command, so only version queries run: PROGRAM --version for any
 * program, the other usual forms only for a program that is not a shell,
 * an interpreter, a package manager, a task runner or a tool that acts
 * on files or processes - to those "-v" or "version" can mean "run this"
 * (rake -v runs the Rakefile, java version a class in the repository,
 * bash version a script of that name, pkill -v kills).
 */
#include "runtime_ask.h"

#include <stdlib.h>
#include <string.h>

/* The argument lists of a version query; the first alone for a risky
 * program. */
static const char *const cmd_shapes[][3] = {
	{ "--version" }, { "-version" }, { "-v" }, { "-V" }, { "-vV" },
	{ "version" }, { "version", "--short" }, { "version", "--client" },
	{ "-dumpversion" }, { "-dumpfullversion" }, { "--numeric-version" },
};

static const char *const cmd_risky[] = {
	/* shells and wrappers that run their arguments */
	"sh", "bash", "dash", "zsh", "ksh", "mksh", "yash", "fish", "csh", "tcsh",
	"busybox", "toybox", "env", "nice", "nohup", "timeout", "stdbuf", "xargs",
	"sudo", "doas", "su", "runuser", "setsid", "chroot", "unshare", "nsenter",
	"flock", "script", "expect", "watch", "time", "strace", "ltrace", "gdb",
	"valgrind", "exec", "eval", "command", "systemd-run",
	/* interpreters and compilers that run a file or class named so */
	"python", "pypy", "node", "nodejs", "deno", "bun", "perl", "ruby", "irb",
	"php", "lua", "luajit", "tclsh", "wish", "Rscript", "R", "julia", "java",
	"javaw", "jshell", "groovy", "scala", "kotlin", "clojure", "elixir",
	"iex", "erl", "escript", "guile", "racket", "sbcl", "runghc", "ghci",
	"swift", "dotnet", "awk", "gawk", "mawk", "nawk", "sed", "ed", "ex", "vi",
	"vim", "nvim", "emacs", "osascript", "pwsh",
	/* package managers and task runners that run the repository's scripts */
	"npm", "npx", "pnpm", "pnpx", "yarn", "yarnpkg", "corepack", "bunx",
	"cargo", "pip", "pipx", "uv", "uvx", "poetry", "pdm", "hatch", "tox",
	"nox", "gem", "bundle", "bundler", "rake", "make", "gmake", "bmake",
	"ninja", "just", "task", "cmake", "meson", "scons", "ant", "mvn", "mvnd",
	"gradle", "sbt", "lein", "mix", "bazel", "bazelisk", "buck", "pants",
	"grunt", "gulp", "jake", "nx", "turbo", "lerna", "composer",
	/* tools that act on files or processes */
	"kill", "pkill", "killall", "skill", "snice", "rm", "rmdir", "shred",
	"unlink", "mv", "cp", "dd", "truncate", "chmod", "chown", "ln", "install",
	"tee", "touch", "mkdir", "xdg-open", "open",
};

/* 1 when prog's file name, without a trailing version ("python3.11" is
 * python), is in cmd_risky. */
static int cmd_is_risky(const char *prog)
{
	const char *base = strrchr(prog, '/');
	size_t n, i;

	base = base ? base + 1 : prog;
	n = strlen(base);
	while (n > 1 && strchr("0123456789.-", base[n - 1]))
		n--;
	for (i = 0; i < ARRAY_SIZE(cmd_risky); i++)
		if (strlen(cmd_risky[i]) == n && !strncmp(base, cmd_risky[i], n))
			return 1;
	return 0;
}

/* 1 when args (NULL-terminated) are exactly shape. */
static int cmd_shape_is(const char *const shape[3], char *const *args)
{
	size_t j;

	for (j = 0; j < 3 && shape[j] && args[j] && !strcmp(shape[j], args[j]);
	     j++)
		;
	return (j == 3 || !shape[j]) && !args[j];
}

int runtime_cmd_allowed(char *const *command, const char *path)
{
	char *real = realpath(path, NULL);
	int risky = cmd_is_risky(command[0]) || cmd_is_risky(path) ||
		    (real && cmd_is_risky(real));
	size_t i;

	free(real);
	for (i = 0; i < (risky ? 1 : ARRAY_SIZE(cmd_shapes)); i++)
		if (cmd_shape_is(cmd_shapes[i], command + 1))
			return 1;
	return 0;
}
