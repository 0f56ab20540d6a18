/**
 * Whether one published version of flower is newer than another. Hand-written rather than a semver
 * dependency because only `major.minor.patch[-prerelease]` strings of our own releases are compared, and
 * this runs on every start.
 *
 * @module
 */

const VERSION_PATTERN = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

interface ParsedVersion {
  core: [number, number, number];
  prerelease: string[];
}

function parse(version: string): ParsedVersion | null {
  const match = VERSION_PATTERN.exec(version.trim());
  if (match === null) return null;
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    prerelease: match[4] === undefined ? [] : match[4].split('.'),
  };
}

// Semver's order of pre-release identifiers: numbers below words, numbers by value, words by text.
function compareIdentifiers(left: string, right: string): number {
  const leftNumeric = /^\d+$/.test(left);
  const rightNumeric = /^\d+$/.test(right);
  if (leftNumeric && rightNumeric) return Number(left) - Number(right);
  if (leftNumeric !== rightNumeric) return leftNumeric ? -1 : 1;
  return left < right ? -1 : left > right ? 1 : 0;
}

function compare(left: ParsedVersion, right: ParsedVersion): number {
  for (let index = 0; index < 3; index += 1) {
    const difference = (left.core[index] ?? 0) - (right.core[index] ?? 0);
    if (difference !== 0) return difference;
  }
  // A release is newer than any of its pre-releases.
  if (left.prerelease.length === 0 || right.prerelease.length === 0) {
    return right.prerelease.length - left.prerelease.length;
  }
  const length = Math.max(left.prerelease.length, right.prerelease.length);
  for (let index = 0; index < length; index += 1) {
    const leftPart = left.prerelease[index];
    const rightPart = right.prerelease[index];
    if (leftPart === undefined) return -1;
    if (rightPart === undefined) return 1;
    const difference = compareIdentifiers(leftPart, rightPart);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** True when `candidate` is a valid version newer than `current`; false for anything unparsable. */
export function isNewerVersion(candidate: string, current: string): boolean {
  const parsedCandidate = parse(candidate);
  const parsedCurrent = parse(current);
  if (parsedCandidate === null || parsedCurrent === null) return false;
  return compare(parsedCandidate, parsedCurrent) > 0;
}
