/* runtime_table.c - the runtimes envpreflight knows: their names and
 * titles, the binaries to look for, and the version query each answers.
 *
 * A name not here is asked as NAME --version (RUNTIME_GENERIC_REGEX); a
 * preflight.yaml command and version_regex for a name override the table.
 */
#include "runtimes.h"

#include <string.h>

#define LINE_SEMVER "^v?([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)"

static const struct known_runtime known[] = {
	{ "node", "Node.js", "Node.js runtime", { "node" }, { "--version" },
	  "^v([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)", "v", 0 },
	{ "npm", "npm", "npm", { "npm" }, { "--version" }, LINE_SEMVER, "", 0 },
	{ "pnpm", "pnpm", "pnpm", { "pnpm" }, { "--version" }, LINE_SEMVER, "", 0 },
	{ "yarn", "Yarn", "Yarn", { "yarn" }, { "--version" }, LINE_SEMVER, "", 0 },
	{ "bun", "Bun", "Bun runtime", { "bun" }, { "--version" }, LINE_SEMVER, "", 0 },
	{ "deno", "Deno", "Deno runtime", { "deno" }, { "--version" },
	  "^deno ([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)", "", 0 },
	{ "python", "Python", "Python runtime", { "python3", "python" },
	  { "--version" }, NULL, "", 0 },
	{ "go", "Go", "Go toolchain", { "go" }, { "version" },
	  "go version go([0-9]+(\\.[0-9]+)*((rc|beta)[0-9]+)?)", "go", 0 },
	{ "ruby", "Ruby", "Ruby runtime", { "ruby" }, { "--version" },
	  "^ruby ([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "java", "Java", "Java runtime", { "java" }, { "-version" },
	  "version \"([0-9]+(\\.[0-9]+)*)", "", 0 },
	{ "rust", "Rust", "Rust compiler", { "rustc" }, { "--version" },
	  "^rustc ([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.]+)?)", "", 0 },
	{ "php", "PHP", "PHP runtime", { "php" }, { "--version" },
	  "^PHP ([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "elixir", "Elixir", "Elixir", { "elixir" }, { "--version" },
	  "Elixir ([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "dotnet", ".NET SDK", ".NET SDK", { "dotnet" }, { "--version" },
	  LINE_SEMVER, "", 0 },
	{ "terraform", "Terraform", "Terraform", { "terraform" }, { "version" },
	  "^Terraform v([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "kubectl", "kubectl", "kubectl", { "kubectl" }, { "version", "--client" },
	  "Client Version: v([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "helm", "Helm", "Helm", { "helm" }, { "version", "--short" },
	  "^v([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "docker", "Docker", "Docker daemon", { NULL }, { NULL }, NULL, "", 1 },
};

const struct known_runtime *runtime_table_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}
