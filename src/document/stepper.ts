import type { DocumentBlockStepper, DocumentBlockStepperStep, DocumentTabsItemChild } from './types.js';

/**
 * Steppers: `{% stepper %}`, then for each step `{% step %}`, its content and
 * `{% endstep %}`, then `{% endstepper %}`.
 */

export const OPEN_STEPPER_TAG = '{% stepper %}';
export const CLOSE_STEPPER_TAG = '{% endstepper %}';
export const OPEN_STEP_TAG = '{% step %}';
export const CLOSE_STEP_TAG = '{% endstep %}';

export function stepperBlock(steps: DocumentTabsItemChild[][]): DocumentBlockStepper {
  const nodes = steps.map((content): DocumentBlockStepperStep => ({
    object: 'block',
    type: 'stepper-step',
    data: {},
    nodes: content,
  }));
  return { object: 'block', type: 'stepper', data: {}, nodes };
}
