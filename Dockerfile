# One image for both process types: `node scripts/serve.mjs` (web) and `npm run worker`.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
RUN npm ci
COPY . .
RUN npx next build
ENV NODE_ENV=production PORT=1984
EXPOSE 1984
CMD ["node", "scripts/serve.mjs"]
