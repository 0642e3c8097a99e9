import { QUESTION_CAPABILITIES } from '@kandev/protocol';
import { QUESTION_TOOL, systemPromptFor, toolNamesIn } from './system-prompt';

describe('system prompts per question capability', () => {
  test('a normal task may ask the operator, with the operator tool', () => {
    const prompt = systemPromptFor('user');
    expect(prompt).toMatch(/may ask the operator/);
    expect(toolNamesIn(prompt)).toEqual(['ask_user_question_kandev']);
  });

  test('an autopilot child: safe reversible assumptions, parent only for material decisions, asked last', () => {
    const prompt = systemPromptFor('parent');
    expect(prompt).toMatch(/safe, reversible assumptions/);
    expect(prompt).toMatch(/only for a decision that would materially change the outcome/);
    expect(prompt).toMatch(/must be the last action of your turn/);
    expect(prompt).not.toMatch(/ask the operator/);
    expect(toolNamesIn(prompt)).toEqual(['ask_parent_question_kandev']);
  });

  test('an autopilot root: no one can be asked, best judgment, material assumptions disclosed', () => {
    const prompt = systemPromptFor('none');
    expect(prompt).toMatch(/No one can be asked/);
    expect(prompt).toMatch(/best judgment/);
    expect(prompt).toMatch(/disclose every material assumption/);
    expect(toolNamesIn(prompt)).toEqual([]);
  });

  test.each(QUESTION_CAPABILITIES)('%s: names exactly the granted question tool, or none', (capability) => {
    const granted = QUESTION_TOOL[capability];
    const questionTools = toolNamesIn(systemPromptFor(capability)).filter((name) => name.startsWith('ask_'));
    expect(questionTools).toEqual(granted === null ? [] : [granted]);
  });

  test('toolNamesIn finds each *_kandev name once', () => {
    expect(toolNamesIn('use a_kandev, then b_c_kandev and a_kandev; not kandev or x_kandevy')).toEqual([
      'a_kandev',
      'b_c_kandev',
    ]);
  });
});
