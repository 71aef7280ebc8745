/**
 * Extract one section of an INI-style file (setup.cfg, tox.ini), normalised
 * so that comment and whitespace edits do not count as changes.
 */
export function iniSection(text: string, section: string): string | undefined {
  let inside = false;
  let found = false;
  const body: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("[") && line.endsWith("]")) {
      inside = line.slice(1, -1).trim() === section;
      found ||= inside;
      continue;
    }
    if (
      !inside || line === "" || line.startsWith("#") || line.startsWith(";")
    ) {
      continue;
    }
    body.push(line.replace(/\s*([=:])\s*/, "$1"));
  }
  return found ? body.join("\n") : undefined;
}
