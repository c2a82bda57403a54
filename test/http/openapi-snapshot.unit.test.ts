// House rule 2: the public surface is a reviewed diff. The OpenAPI document generated from the
// schemas is compared with the committed copy; a change to any route, parameter or shape shows
// up here (update with `npx vitest run -u test/http/openapi-snapshot.unit.test.ts` and review it).
import { expect, it } from 'vitest';
import { buildOpenApi } from '../../src/http/openapi.js';
import { FAMILY_S_ROUTES } from '../../src/http/routes/s/index.js';
import { FAMILY_U_ROUTES } from '../../src/http/routes/u/index.js';

it('the OpenAPI document of both families matches the reviewed snapshot', async () => {
  await expect(`${JSON.stringify(buildOpenApi([...FAMILY_U_ROUTES, ...FAMILY_S_ROUTES]), null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/openapi.json');
});
