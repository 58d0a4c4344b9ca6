/**
 * The built-in starter templates: pages of real GitBook blocks (hints, code
 * with titles, tables, tabs, steppers) written as markdown, which the content
 * write turns into documents as it does any page's.
 */

export interface TemplatePage {
  ref: string;
  title: string;
  emoji?: string;
  description?: string;
  markdown: string;
  children?: TemplatePage[];
}

export interface SpaceTemplate {
  id: string;
  title: string;
  pages: TemplatePage[];
}

const productDocs: SpaceTemplate = {
  id: 'product-docs',
  title: 'Product documentation',
  pages: [
    {
      ref: 'overview',
      title: 'Overview',
      emoji: '1f44b',
      description: 'What the product does and where to start.',
      markdown: `# Overview

Welcome to the documentation. Start with the quickstart, then read the guides for the parts you use.

{% hint style="info" %}
This space was made from the **Product documentation** template. Every page is yours to edit or delete.
{% endhint %}

| Where to go | What you find there |
| --- | --- |
| Quickstart | Your first result in five minutes |
| Guides | How to do one task, step by step |
| Reference | Every setting, precisely |
`,
    },
    {
      ref: 'quickstart',
      title: 'Quickstart',
      emoji: '1f680',
      description: 'Install, configure and run it.',
      markdown: `# Quickstart

{% stepper %}
{% step %}
### Install

{% code title="Terminal" %}
\`\`\`bash
npm install --save acme
\`\`\`
{% endcode %}
{% endstep %}

{% step %}
### Configure

{% code title="acme.config.json" %}
\`\`\`json
{ "project": "my-project", "region": "eu" }
\`\`\`
{% endcode %}
{% endstep %}

{% step %}
### Run

\`\`\`bash
npx acme start
\`\`\`
{% endstep %}
{% endstepper %}

{% hint style="success" %}
That is it: the service answers on port 8080.
{% endhint %}
`,
    },
    {
      ref: 'guides',
      title: 'Guides',
      emoji: '1f4d6',
      markdown: `# Guides

Each guide walks through one task from start to finish.
`,
      children: [
        {
          ref: 'guides-first-project',
          title: 'Create your first project',
          markdown: `# Create your first project

1. Open the dashboard and choose **New project**.
2. Give the project a name your team will recognise.
3. Invite your teammates.

{% hint style="warning" %}
A project's name appears in its addresses: choose it before you share them.
{% endhint %}
`,
        },
      ],
    },
    {
      ref: 'faq',
      title: 'FAQ',
      emoji: '2753',
      markdown: `# FAQ

<details>

<summary>Can I import content I already have?</summary>

Yes: import markdown files or a website into any space.

</details>

<details>

<summary>Who can edit these pages?</summary>

Members with the edit role on the space, through change requests.

</details>
`,
    },
  ],
};

const apiDocs: SpaceTemplate = {
  id: 'api-docs',
  title: 'API documentation',
  pages: [
    {
      ref: 'introduction',
      title: 'Introduction',
      emoji: '1f4e1',
      description: 'The API in one page.',
      markdown: `# Introduction

The API is organised around REST: predictable resource URLs, JSON bodies and standard HTTP status codes.

{% hint style="info" %}
The base URL of every request is \`https://api.example.com/v1\`.
{% endhint %}
`,
    },
    {
      ref: 'authentication',
      title: 'Authentication',
      emoji: '1f511',
      markdown: `# Authentication

Send your API token in the \`Authorization\` header of every request.

{% tabs %}
{% tab title="curl" %}
\`\`\`bash
curl https://api.example.com/v1/projects \\
  -H "Authorization: Bearer $API_TOKEN"
\`\`\`
{% endtab %}

{% tab title="JavaScript" %}
\`\`\`javascript
const response = await fetch('https://api.example.com/v1/projects', {
  headers: { Authorization: \`Bearer \${process.env.API_TOKEN}\` },
});
\`\`\`
{% endtab %}

{% tab title="Python" %}
\`\`\`python
import os, requests
response = requests.get(
    "https://api.example.com/v1/projects",
    headers={"Authorization": f"Bearer {os.environ['API_TOKEN']}"},
)
\`\`\`
{% endtab %}
{% endtabs %}

{% hint style="danger" %}
Keep tokens secret: never commit them or send them to a browser.
{% endhint %}
`,
    },
    {
      ref: 'errors',
      title: 'Errors',
      emoji: '26a0',
      markdown: `# Errors

Every error answers with the same body:

{% code title="Error body" %}
\`\`\`json
{ "error": { "code": 404, "message": "No project with this id" } }
\`\`\`
{% endcode %}

| Status | Meaning |
| --- | --- |
| 400 | The request is malformed or breaks a rule |
| 401 | The token is missing or wrong |
| 403 | The token may not do this |
| 404 | Nothing with this id is visible to the token |
| 429 | Too many requests: wait as \`Retry-After\` says |
`,
    },
    {
      ref: 'pagination',
      title: 'Pagination',
      emoji: '1f4c4',
      markdown: `# Pagination

Lists answer a page of \`items\` at a time. Pass the \`next.page\` of one answer as the \`page\` parameter of the next request; the last page has no \`next\`.
`,
    },
  ],
};

const knowledgeBase: SpaceTemplate = {
  id: 'knowledge-base',
  title: 'Knowledge base',
  pages: [
    {
      ref: 'welcome',
      title: 'Welcome',
      emoji: '1f3e0',
      description: 'How this knowledge base is organised.',
      markdown: `# Welcome

This knowledge base holds what the team knows, so that nobody has to ask twice.

{% hint style="info" %}
Search is the fastest way in: every heading is indexed.
{% endhint %}
`,
    },
    {
      ref: 'how-we-work',
      title: 'How we work',
      emoji: '1f91d',
      markdown: `# How we work

- [ ] Read the onboarding checklist
- [ ] Set up your accounts
- [x] Join the team chat

> Write it down once, link to it forever.
`,
    },
    {
      ref: 'troubleshooting',
      title: 'Troubleshooting',
      emoji: '1f527',
      markdown: `# Troubleshooting

| Symptom | Likely cause | Fix |
| --- | --- | --- |
| Cannot sign in | Expired password | Reset it from the sign-in page |
| Build fails | Outdated dependencies | Run \`npm ci\` again |

{% hint style="warning" %}
Still stuck? Open a ticket with the exact error message.
{% endhint %}
`,
    },
  ],
};

export const SPACE_TEMPLATES: readonly SpaceTemplate[] = [productDocs, apiDocs, knowledgeBase];
export const SPACE_TEMPLATE_IDS = ['product-docs', 'api-docs', 'knowledge-base'] as const;
/** What a site gets from applyTemplateToSite: GitBook's default documentation. */
export const SITE_TEMPLATE_ID = 'product-docs';

export function findTemplate(id: string): SpaceTemplate | undefined {
  return SPACE_TEMPLATES.find((template) => template.id === id);
}
