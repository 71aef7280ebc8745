/**
 * Oracle strength by mutation: pawl changes the code under test in small
 * ways (a flipped comparison, a constant off by one, a removed statement)
 * and runs the base's registered properties and the head's against each
 * change. A mutant the base's property kills and the head's does not is a
 * weakening no syntactic rule has to see.
 *
 * @module
 */
export {
  applyMutant,
  type Mutant,
  MUTATION_OPERATORS,
  type MutationOperator,
  renderMutantDiff,
} from "./mutant.ts";
export {
  generateMutants,
  type GenerateMutantsOptions,
} from "./generate_mutants.ts";
export {
  ACTIVE_MUTANT_NAME,
  buildSchemata,
  type BuildSchemataOptions,
  mutantAtLine,
  type Schemata,
  SCHEMATA_MAX_LENGTH,
} from "./schemata.ts";
