/* runtime_table.c - the runtimes envpreflight knows: their names, the binaries to look for, and the version query each answers.
 *
 * A name not here is asked as NAME --version (RUNTIME_GENERIC_REGEX); a
 * preflight.yaml command and version_regex for a name override the table.
 */
#include "runtimes.h"

#include <string.h>

#define LINE_SEMVER "^v?([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)"

static const struct known_runtime known[] = {
	{ "node", "Node.js", { "node" }, { "--version" },
	  "^v([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)", "v", 0, 0 },
	{ "npm", "npm", { "npm" }, { "--version" }, LINE_SEMVER, "", 0, 0 },
	{ "pnpm", "pnpm", { "pnpm" }, { "--version" }, LINE_SEMVER, "", 0, 0 },
	{ "yarn", "Yarn", { "yarn" }, { "--version" }, LINE_SEMVER, "", 0, 0 },
	{ "bun", "Bun", { "bun" }, { "--version" }, LINE_SEMVER, "", 0, 0 },
	{ "deno", "Deno", { "deno" }, { "--version" },
	  "^deno ([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)", "", 0, 0 },
	{ "python", "Python", { "python3", "python" },
	  { "--version" }, NULL, "", 0, 0 },
	{ "go", "Go", { "go" }, { "version" },
	  "go version go([0-9]+(\\.[0-9]+)*((rc|beta)[0-9]+)?)", "go", 0, 0 },
	{ "ruby", "Ruby", { "ruby" }, { "--version" },
	  "^ruby ([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0, 0 },
	{ "java", "Java", { "java" }, { "-version" },
	  "version \"([0-9]+(\\.[0-9]+)*)", "", 0, 0 },
	{ "rust", "Rust", { "rustc" }, { "--version" },
	  "^rustc ([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.]+)?)", "", 0, 0 },
	{ "php", "PHP", { "php" }, { "--version" },
	  "^PHP ([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0, 0 },
	{ "elixir", "Elixir", { "elixir" }, { "--version" },
	  "Elixir ([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)", "", 0, 0 },
	{ "dotnet", ".NET SDK", { "dotnet" }, { "--version" },
	  LINE_SEMVER, "", 0, 0 },
	{ "terraform", "Terraform", { "terraform" }, { "version" },
	  "^Terraform v([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0, 0 },
	{ "kubectl", "kubectl", { "kubectl" }, { "version", "--client" },
	  "Client Version: v([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0, 0 },
	{ "helm", "Helm", { "helm" }, { "version", "--short" },
	  "^v([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0, 0 },
	{ "caddy", "Caddy", { "caddy" }, { "version" },
	  "^v([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)", "", 0, 0 },
	/* erl has no version flag: releases/<N>/OTP_VERSION (peek_erl.c) */
	{ "erlang", "Erlang/OTP", { "erl" }, { NULL }, NULL, "", 0, 1 },
	{ "docker", "Docker daemon", { NULL }, { NULL }, NULL, "", 1, 0 },
};

const struct known_runtime *runtime_table_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}
